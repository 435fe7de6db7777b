SELECT pg_advisory_xact_lock(hashtext('reelstat-activity:' || $1::text)) AS locked;
