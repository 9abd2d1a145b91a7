  CALL sys.compact('t');
