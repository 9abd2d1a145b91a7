SELECT a /* never closed
FROM t;
