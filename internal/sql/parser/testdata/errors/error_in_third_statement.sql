SET 'a' = 'b';

-- the third statement is wrong
INSERT INTO t
  SELECT a,, b FROM u;
