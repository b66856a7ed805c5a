-- placeholder of issue 17's uploads tables
SELECT 1
