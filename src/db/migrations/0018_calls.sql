-- placeholder of issue 17's calls tables
SELECT 1
