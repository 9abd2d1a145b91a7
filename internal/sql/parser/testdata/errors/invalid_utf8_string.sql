SELECT 'café', 1;
