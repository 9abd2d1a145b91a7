SELECT 'abc FROM t;
