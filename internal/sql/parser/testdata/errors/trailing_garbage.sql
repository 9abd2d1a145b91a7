SELECT a FROM t garbage garbage;
