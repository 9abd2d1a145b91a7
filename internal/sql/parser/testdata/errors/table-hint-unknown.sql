SELECT * FROM t /*+ STATE_TTL('t' = '1d') */
