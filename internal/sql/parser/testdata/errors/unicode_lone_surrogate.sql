SELECT 'ok',
       U&'a\D83Db';
