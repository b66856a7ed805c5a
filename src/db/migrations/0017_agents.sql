-- placeholder of issue 17's agents tables
SELECT 1
