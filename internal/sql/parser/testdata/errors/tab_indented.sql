SELECT
	x,
	y AS FROM t;
