SELECT * FROM t /*+ OPTIONS('scan.startup.mode' = 'earliest-offset', 'scan.startup.mode' = 'latest-offset') */;
