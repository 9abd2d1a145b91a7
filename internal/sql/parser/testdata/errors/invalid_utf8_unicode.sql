SELECT U&'ab√';
