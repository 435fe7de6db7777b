SELECT count(*)::int AS n FROM admin_accounts;
