-- 0016: a store's settings history (issue 28): one row per change of its
-- settings, the last app.SettingsVersionsKept per store. doc is the
-- app.SettingsVersion (no secrets).
CREATE TABLE settings_versions (
	store_id bigint NOT NULL,
	id       bigint NOT NULL,
	doc      json   NOT NULL,
	PRIMARY KEY (store_id, id)
);
