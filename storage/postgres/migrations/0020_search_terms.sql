-- 0020: search that forgives (issue 36). Beside the words of an active
-- product's name as typed, product_words holds its terms: app.TermMark and
-- the stem of every word of its name and description (app.IndexTerms), pos
-- -1. in_name says whether the word or term comes from the name (a
-- description-only term ranks lower). The migration's Go step rewrites
-- every product's rows in this form.
ALTER TABLE product_words ADD COLUMN in_name boolean NOT NULL DEFAULT true;
