SELECT key, value FROM app_settings;
