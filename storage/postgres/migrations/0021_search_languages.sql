-- 0021: each store searches in its language (issue 36): the terms of a
-- store's products are made with the stemmer of its locale, and ё reads as
-- е. The migration's Go step rewrites every product's rows in this form.
SELECT 1;
