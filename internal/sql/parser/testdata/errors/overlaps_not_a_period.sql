SELECT (a, b) OVERLAPS (c, d, e) FROM t;
