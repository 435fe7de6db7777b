SELECT now() AS now;
