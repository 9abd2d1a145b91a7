CREATE TABLE t (r RAW('java.lang.String'));
