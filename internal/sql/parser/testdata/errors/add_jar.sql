ADD JAR '/tmp/udf.jar';
