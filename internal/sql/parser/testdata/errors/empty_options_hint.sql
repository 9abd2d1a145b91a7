SELECT * FROM t /*+ OPTIONS() */;
