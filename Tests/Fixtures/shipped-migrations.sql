-- v1 (sqlite)
CREATE TABLE "nft" ("seq" INTEGER PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "images" TEXT NOT NULL, "rating" INTEGER NOT NULL, "description" TEXT NOT NULL, "price" DOUBLE NOT NULL, "author" TEXT NOT NULL, "website" TEXT, "createdAt" TEXT NOT NULL);
CREATE TABLE "collection" ("seq" INTEGER PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "cover" TEXT NOT NULL, "nfts" TEXT NOT NULL, "nftCount" INTEGER NOT NULL, "description" TEXT NOT NULL, "author" TEXT NOT NULL, "website" TEXT, "createdAt" TEXT NOT NULL);
CREATE TABLE "user" ("seq" INTEGER PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "avatar" TEXT NOT NULL, "description" TEXT, "website" TEXT NOT NULL, "nfts" TEXT NOT NULL, "nftCount" INTEGER NOT NULL, "rating" TEXT NOT NULL);
CREATE TABLE "currency" ("seq" INTEGER PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "title" TEXT NOT NULL, "name" TEXT NOT NULL, "image" TEXT NOT NULL, "paymentSucceeds" BOOLEAN NOT NULL);
CREATE TABLE "profile" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "avatar" TEXT NOT NULL, "description" TEXT NOT NULL, "website" TEXT NOT NULL, "nfts" TEXT NOT NULL, "likes" TEXT NOT NULL);
CREATE TABLE "orders" ("id" TEXT PRIMARY KEY NOT NULL, "nfts" TEXT NOT NULL);
CREATE INDEX "user_name" ON "user" ("name");

-- v2-versions (sqlite)
ALTER TABLE "profile" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "orders" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

-- v3-accounts (sqlite)
CREATE TABLE "account" ("userID" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "email" TEXT NOT NULL, "emailKey" TEXT NOT NULL UNIQUE, "passwordHash" TEXT NOT NULL, "spent" DOUBLE NOT NULL DEFAULT 0, "createdAt" TEXT NOT NULL);
CREATE TABLE "session" ("tokenHash" TEXT PRIMARY KEY NOT NULL, "userID" TEXT NOT NULL REFERENCES "account" ("userID") ON DELETE CASCADE, "createdAt" TEXT NOT NULL);
CREATE INDEX "session_by_user" ON "session" ("userID");

-- v4-changes (sqlite)
CREATE TABLE "store_state" ("id" INTEGER PRIMARY KEY NOT NULL CHECK ("id" = 1), "generation" INTEGER NOT NULL);
INSERT INTO "store_state" ("id", "generation") VALUES (1, 0);
CREATE TABLE "change_log" ("generation" INTEGER PRIMARY KEY NOT NULL, "owner" TEXT NOT NULL, "users" BOOLEAN NOT NULL, "sessions" BOOLEAN NOT NULL);

-- v5-session-use (sqlite)
ALTER TABLE "session" ADD COLUMN "lastUsedAt" TEXT NOT NULL DEFAULT '';

-- v1 (postgres)
CREATE TABLE "nft" ("seq" BIGINT PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "images" TEXT NOT NULL, "rating" BIGINT NOT NULL, "description" TEXT NOT NULL, "price" DOUBLE PRECISION NOT NULL, "author" TEXT NOT NULL, "website" TEXT, "createdAt" TEXT NOT NULL);
CREATE TABLE "collection" ("seq" BIGINT PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "cover" TEXT NOT NULL, "nfts" TEXT NOT NULL, "nftCount" BIGINT NOT NULL, "description" TEXT NOT NULL, "author" TEXT NOT NULL, "website" TEXT, "createdAt" TEXT NOT NULL);
CREATE TABLE "user" ("seq" BIGINT PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "name" TEXT NOT NULL, "avatar" TEXT NOT NULL, "description" TEXT, "website" TEXT NOT NULL, "nfts" TEXT NOT NULL, "nftCount" BIGINT NOT NULL, "rating" TEXT NOT NULL);
CREATE TABLE "currency" ("seq" BIGINT PRIMARY KEY NOT NULL, "id" TEXT NOT NULL UNIQUE, "title" TEXT NOT NULL, "name" TEXT NOT NULL, "image" TEXT NOT NULL, "paymentSucceeds" BOOLEAN NOT NULL);
CREATE TABLE "profile" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "avatar" TEXT NOT NULL, "description" TEXT NOT NULL, "website" TEXT NOT NULL, "nfts" TEXT NOT NULL, "likes" TEXT NOT NULL);
CREATE TABLE "orders" ("id" TEXT PRIMARY KEY NOT NULL, "nfts" TEXT NOT NULL);
CREATE INDEX "user_name" ON "user" ("name");

-- v2-versions (postgres)
ALTER TABLE "profile" ADD COLUMN "version" BIGINT NOT NULL DEFAULT 1;
ALTER TABLE "orders" ADD COLUMN "version" BIGINT NOT NULL DEFAULT 1;

-- v3-accounts (postgres)
CREATE TABLE "account" ("userID" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL, "email" TEXT NOT NULL, "emailKey" TEXT NOT NULL UNIQUE, "passwordHash" TEXT NOT NULL, "spent" DOUBLE PRECISION NOT NULL DEFAULT 0, "createdAt" TEXT NOT NULL);
CREATE TABLE "session" ("tokenHash" TEXT PRIMARY KEY NOT NULL, "userID" TEXT NOT NULL REFERENCES "account" ("userID") ON DELETE CASCADE, "createdAt" TEXT NOT NULL);
CREATE INDEX "session_by_user" ON "session" ("userID");

-- v4-changes (postgres)
CREATE TABLE "store_state" ("id" BIGINT PRIMARY KEY NOT NULL CHECK ("id" = 1), "generation" BIGINT NOT NULL);
INSERT INTO "store_state" ("id", "generation") VALUES (1, 0);
CREATE TABLE "change_log" ("generation" BIGINT PRIMARY KEY NOT NULL, "owner" TEXT NOT NULL, "users" BOOLEAN NOT NULL, "sessions" BOOLEAN NOT NULL);

-- v5-session-use (postgres)
ALTER TABLE "session" ADD COLUMN "lastUsedAt" TEXT NOT NULL DEFAULT '';

-- v7-change-notifies-its-rows (postgres)
DROP FUNCTION IF EXISTS fakenft_change(TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT,
  BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT);
CREATE OR REPLACE FUNCTION fakenft_change(
  owner_id TEXT, expected_profile BIGINT, expected_order BIGINT,
  p_name TEXT, p_avatar TEXT, p_description TEXT, p_website TEXT, p_nfts TEXT, p_likes TEXT, p_version BIGINT,
  o_nfts TEXT, o_version BIGINT,
  a_spent DOUBLE PRECISION, u_name TEXT, u_avatar TEXT, u_description TEXT, u_website TEXT, u_nfts TEXT,
  u_count BIGINT, u_rating TEXT, users_changed BOOLEAN, kept BIGINT, writer TEXT, rows_json TEXT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE counted BIGINT;
BEGIN
  PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
    WHERE p.id = owner_id AND p.version = expected_profile AND o.version = expected_order FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  IF p_version IS NOT NULL THEN
    UPDATE profile SET name = p_name, avatar = p_avatar, description = p_description, website = p_website,
      nfts = p_nfts, likes = p_likes, version = p_version WHERE id = owner_id;
  END IF;
  IF o_version IS NOT NULL THEN
    UPDATE orders SET nfts = o_nfts, version = o_version WHERE id = owner_id;
  END IF;
  IF a_spent IS NOT NULL THEN UPDATE account SET spent = a_spent WHERE "userID" = owner_id; END IF;
  IF users_changed THEN
    UPDATE "user" SET name = u_name, avatar = u_avatar, description = u_description, website = u_website,
      nfts = u_nfts, "nftCount" = u_count, rating = u_rating WHERE id = owner_id;
  END IF;
  UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation INTO counted;
  INSERT INTO change_log (generation, owner, users, sessions) VALUES (counted, owner_id, users_changed, false);
  IF counted % 1000 = 0 THEN DELETE FROM change_log WHERE generation <= counted - kept; END IF;
  PERFORM pg_notify('fakenft_changes', counted || ' ' || writer || COALESCE(' ' || rows_json, ''));
  RETURN counted;
END
$$;

-- v8-changes-in-batches (postgres)
CREATE OR REPLACE FUNCTION fakenft_change_batch(batch TEXT, kept BIGINT, writer TEXT)
RETURNS BIGINT[] LANGUAGE plpgsql AS $$
DECLARE
  c RECORD;
  numbered BIGINT[] := '{}';
BEGIN
  PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
    WHERE p.id IN (SELECT x.owner_id FROM jsonb_to_recordset(batch::jsonb) AS x(owner_id TEXT))
    ORDER BY p.id COLLATE "C" FOR UPDATE;
  FOR c IN SELECT * FROM jsonb_to_recordset(batch::jsonb) AS x(
      nth INT, owner_id TEXT, expected_profile BIGINT, expected_order BIGINT,
      p_name TEXT, p_avatar TEXT, p_description TEXT, p_website TEXT, p_nfts TEXT, p_likes TEXT,
      p_version BIGINT,
      o_nfts TEXT, o_version BIGINT, a_spent DOUBLE PRECISION,
      u_name TEXT, u_avatar TEXT, u_description TEXT, u_website TEXT, u_nfts TEXT, u_count BIGINT,
      u_rating TEXT,
      users_changed BOOLEAN, rows_json TEXT)
    ORDER BY nth
  LOOP
    numbered := array_append(numbered, COALESCE(fakenft_change(c.owner_id, c.expected_profile,
      c.expected_order, c.p_name, c.p_avatar, c.p_description, c.p_website, c.p_nfts, c.p_likes, c.p_version,
      c.o_nfts, c.o_version, c.a_spent, c.u_name, c.u_avatar, c.u_description, c.u_website, c.u_nfts,
      c.u_count, c.u_rating, c.users_changed, kept, writer, c.rows_json), 0));
  END LOOP;
  RETURN numbered;
END
$$;

-- v9-changes-as-rows (postgres)
DROP FUNCTION fakenft_change_batch(TEXT, BIGINT, TEXT);
DROP FUNCTION fakenft_change(TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BIGINT,
  DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT, TEXT);
CREATE FUNCTION fakenft_changes(batch JSONB, log_length BIGINT, writer TEXT)
RETURNS BIGINT[] LANGUAGE plpgsql AS $$
DECLARE
  c JSONB;
  nth INT;
  owner_id TEXT;
  counted BIGINT;
  numbered BIGINT[] := '{}';
  pr profile;
  orow orders;
  ar account;
  ur "user";
BEGIN
  IF jsonb_array_length(batch) > 1 THEN
    PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
      WHERE p.id IN (SELECT x->>'owner' FROM jsonb_array_elements(batch) AS x)
      ORDER BY p.id COLLATE "C" FOR UPDATE;
  END IF;
  FOR nth IN 0 .. jsonb_array_length(batch) - 1 LOOP
    c := batch->nth;
    owner_id := c->>'owner';
    PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
      WHERE p.id = owner_id AND p.version = (c->>'expectedProfile')::BIGINT
        AND o.version = (c->>'expectedOrder')::BIGINT FOR UPDATE;
    IF NOT FOUND THEN
      numbered := numbered || 0::BIGINT;
      CONTINUE;
    END IF;
    IF c ? 'profile' THEN
      pr := jsonb_populate_record(NULL::profile, c->'profile');
      UPDATE profile SET (id, name, avatar, description, website, nfts, likes, version) = ROW(pr.*)
        WHERE id = owner_id;
    END IF;
    IF c ? 'orders' THEN
      orow := jsonb_populate_record(NULL::orders, c->'orders');
      UPDATE orders SET (id, nfts, version) = ROW(orow.*) WHERE id = owner_id;
    END IF;
    IF c ? 'account' THEN
      ar := jsonb_populate_record(NULL::account, c->'account');
      UPDATE account SET ("userID", name, email, "emailKey", "passwordHash", spent, "createdAt") = ROW(ar.*)
        WHERE "userID" = owner_id;
    END IF;
    IF c ? 'user' THEN
      ur := jsonb_populate_record(NULL::"user", c->'user');
      UPDATE "user" SET (seq, id, name, avatar, description, website, nfts, "nftCount", rating) = ROW(ur.*)
        WHERE id = owner_id;
    END IF;
    UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation INTO counted;
    INSERT INTO change_log (generation, owner, users, sessions) VALUES (counted, owner_id, c ? 'user', false);
    IF counted % 1000 = 0 THEN DELETE FROM change_log WHERE generation <= counted - log_length; END IF;
    PERFORM pg_notify('fakenft_changes', counted || ' ' || writer || COALESCE(' ' || (c->>'rows'), ''));
    numbered := numbered || counted;
  END LOOP;
  RETURN numbered;
END
$$;

-- v10-ssh-keys (sqlite)
CREATE TABLE "ssh_key" ("fingerprint" TEXT PRIMARY KEY NOT NULL, "userID" TEXT NOT NULL REFERENCES "account" ("userID") ON DELETE CASCADE, "createdAt" TEXT NOT NULL);
CREATE INDEX "ssh_key_by_user" ON "ssh_key" ("userID");

-- v10-ssh-keys (postgres)
CREATE TABLE "ssh_key" ("fingerprint" TEXT PRIMARY KEY NOT NULL, "userID" TEXT NOT NULL REFERENCES "account" ("userID") ON DELETE CASCADE, "createdAt" TEXT NOT NULL);
CREATE INDEX "ssh_key_by_user" ON "ssh_key" ("userID");

-- v11-ssh-visitor-state (sqlite)
CREATE TABLE "ssh_visitor" ("fingerprint" TEXT PRIMARY KEY NOT NULL, "state" TEXT NOT NULL, "updatedAt" TEXT NOT NULL);

-- v11-ssh-visitor-state (postgres)
CREATE TABLE "ssh_visitor" ("fingerprint" TEXT PRIMARY KEY NOT NULL, "state" TEXT NOT NULL, "updatedAt" TEXT NOT NULL);

-- v12-unlisted-users (sqlite)
ALTER TABLE "user" ADD COLUMN "listed" BOOLEAN NOT NULL DEFAULT TRUE;

-- v12-unlisted-users (postgres)
ALTER TABLE "user" ADD COLUMN "listed" BOOLEAN NOT NULL DEFAULT TRUE;
CREATE OR REPLACE FUNCTION fakenft_changes(batch JSONB, log_length BIGINT, writer TEXT)
RETURNS BIGINT[] LANGUAGE plpgsql AS $$
DECLARE
  c JSONB;
  nth INT;
  owner_id TEXT;
  counted BIGINT;
  numbered BIGINT[] := '{}';
  pr profile;
  orow orders;
  ar account;
  ur "user";
BEGIN
  IF jsonb_array_length(batch) > 1 THEN
    PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
      WHERE p.id IN (SELECT x->>'owner' FROM jsonb_array_elements(batch) AS x)
      ORDER BY p.id COLLATE "C" FOR UPDATE;
  END IF;
  FOR nth IN 0 .. jsonb_array_length(batch) - 1 LOOP
    c := batch->nth;
    owner_id := c->>'owner';
    PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
      WHERE p.id = owner_id AND p.version = (c->>'expectedProfile')::BIGINT
        AND o.version = (c->>'expectedOrder')::BIGINT FOR UPDATE;
    IF NOT FOUND THEN
      numbered := numbered || 0::BIGINT;
      CONTINUE;
    END IF;
    IF c ? 'profile' THEN
      pr := jsonb_populate_record(NULL::profile, c->'profile');
      UPDATE profile SET (id, name, avatar, description, website, nfts, likes, version) = ROW(pr.*)
        WHERE id = owner_id;
    END IF;
    IF c ? 'orders' THEN
      orow := jsonb_populate_record(NULL::orders, c->'orders');
      UPDATE orders SET (id, nfts, version) = ROW(orow.*) WHERE id = owner_id;
    END IF;
    IF c ? 'account' THEN
      ar := jsonb_populate_record(NULL::account, c->'account');
      UPDATE account SET ("userID", name, email, "emailKey", "passwordHash", spent, "createdAt") = ROW(ar.*)
        WHERE "userID" = owner_id;
    END IF;
    IF c ? 'user' THEN
      ur := jsonb_populate_record(NULL::"user", c->'user');
      UPDATE "user" SET (seq, id, name, avatar, description, website, nfts, "nftCount", rating, listed) = ROW(ur.*)
        WHERE id = owner_id;
    END IF;
    UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation INTO counted;
    INSERT INTO change_log (generation, owner, users, sessions) VALUES (counted, owner_id, c ? 'user', false);
    IF counted % 1000 = 0 THEN DELETE FROM change_log WHERE generation <= counted - log_length; END IF;
    PERFORM pg_notify('fakenft_changes', counted || ' ' || writer || COALESCE(' ' || (c->>'rows'), ''));
    numbered := numbered || counted;
  END LOOP;
  RETURN numbered;
END
$$;

-- v13-paid-orders (sqlite)
CREATE TABLE "purchase" ("id" TEXT PRIMARY KEY NOT NULL, "owner" TEXT NOT NULL, "paidAt" TEXT NOT NULL, "currencyId" TEXT NOT NULL, "currencyName" TEXT NOT NULL, "items" TEXT NOT NULL, "total" DOUBLE NOT NULL);
CREATE INDEX "purchase_by_owner" ON "purchase" ("owner", "paidAt");

-- v13-paid-orders (postgres)
CREATE TABLE "purchase" ("id" TEXT PRIMARY KEY NOT NULL, "owner" TEXT NOT NULL, "paidAt" TEXT NOT NULL, "currencyId" TEXT NOT NULL, "currencyName" TEXT NOT NULL, "items" TEXT NOT NULL, "total" DOUBLE PRECISION NOT NULL);
CREATE INDEX "purchase_by_owner" ON "purchase" ("owner", "paidAt");
CREATE FUNCTION fakenft_refresh_writers() RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  t RECORD;
  named TEXT;
  defaults TEXT;
  puts TEXT := '';
  adds TEXT := '';
BEGIN
  FOR t IN SELECT * FROM (VALUES ('profile', 'id'), ('orders', 'id'), ('account', 'userID'), ('user', 'id'),
      ('purchase', NULL)) AS x(tbl, key) LOOP
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum),
        string_agg(COALESCE(pg_get_expr(d.adbin, d.adrelid), 'NULL') || '::'
          || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
      INTO named, defaults
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = quote_ident(t.tbl)::regclass AND a.attnum > 0 AND NOT a.attisdropped;
    IF t.key IS NOT NULL THEN
      puts := puts || format(
        '  IF tbl = %L THEN UPDATE %I AS r SET (%s) = (SELECT %s FROM jsonb_populate_record(r, fields)) '
        'WHERE r.%I = fields->>%L; RETURN; END IF;' || chr(10), t.tbl, t.tbl, named, named, t.key, t.key);
    END IF;
    adds := adds || format(
      '  IF tbl = %L THEN INSERT INTO %I (%s) SELECT %s FROM jsonb_populate_record(ROW(%s)::%I, fields); '
      'RETURN; END IF;' || chr(10), t.tbl, t.tbl, named, named, defaults, t.tbl);
  END LOOP;
  EXECUTE 'CREATE OR REPLACE FUNCTION fakenft_put_row(tbl TEXT, fields JSONB) RETURNS VOID '
    'LANGUAGE plpgsql AS $f$ BEGIN' || chr(10) || puts
    || '  RAISE EXCEPTION ''fakenft_put_row: no table %'', tbl;' || chr(10) || 'END $f$';
  EXECUTE 'CREATE OR REPLACE FUNCTION fakenft_add_row(tbl TEXT, fields JSONB) RETURNS VOID '
    'LANGUAGE plpgsql AS $f$ BEGIN' || chr(10) || adds
    || '  RAISE EXCEPTION ''fakenft_add_row: no table %'', tbl;' || chr(10) || 'END $f$';
END
$$;
CREATE FUNCTION fakenft_write(batch JSONB, log_length BIGINT, writer TEXT)
RETURNS BIGINT[] LANGUAGE plpgsql AS $$
DECLARE
  c JSONB;
  r JSONB;
  nth INT;
  owner_id TEXT;
  counted BIGINT;
  numbered BIGINT[] := '{}';
BEGIN
  IF jsonb_array_length(batch) > 1 THEN
    PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
      WHERE p.id IN (SELECT x->>'owner' FROM jsonb_array_elements(batch) AS x)
      ORDER BY p.id COLLATE "C" FOR UPDATE;
  END IF;
  FOR nth IN 0 .. jsonb_array_length(batch) - 1 LOOP
    c := batch->nth;
    owner_id := c->>'owner';
    PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
      WHERE p.id = owner_id AND p.version = (c->>'expectedProfile')::BIGINT
        AND o.version = (c->>'expectedOrder')::BIGINT FOR UPDATE;
    IF NOT FOUND THEN
      numbered := numbered || 0::BIGINT;
      CONTINUE;
    END IF;
    FOR r IN SELECT * FROM jsonb_array_elements(COALESCE(c->'put', '[]'::jsonb)) LOOP
      PERFORM fakenft_put_row(r->>'table', r->'row');
    END LOOP;
    IF COALESCE((c->>'forgetPaid')::BOOLEAN, false) THEN DELETE FROM purchase WHERE owner = owner_id; END IF;
    FOR r IN SELECT * FROM jsonb_array_elements(COALESCE(c->'add', '[]'::jsonb)) LOOP
      PERFORM fakenft_add_row(r->>'table', r->'row');
    END LOOP;
    UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation INTO counted;
    INSERT INTO change_log (generation, owner, users, sessions)
      VALUES (counted, owner_id, COALESCE((c->>'users')::BOOLEAN, false), false);
    IF counted % 1000 = 0 THEN DELETE FROM change_log WHERE generation <= counted - log_length; END IF;
    PERFORM pg_notify('fakenft_changes', counted || ' ' || writer || COALESCE(' ' || (c->>'rows'), ''));
    numbered := numbered || counted;
  END LOOP;
  RETURN numbered;
END
$$;

-- v14-account-kinds (sqlite)
ALTER TABLE "account" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'person';
UPDATE "account" SET "kind" = 'key' WHERE "passwordHash" = '!key-only' AND "emailKey" LIKE 'key-%@ssh.invalid';
UPDATE "account" SET "kind" = 'guest' WHERE "passwordHash" = '!key-only' AND "emailKey" LIKE 'guest-%@guest.ssh.invalid';

-- v14-account-kinds (postgres)
ALTER TABLE "account" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'person';
UPDATE "account" SET "kind" = 'key' WHERE "passwordHash" = '!key-only' AND "emailKey" LIKE 'key-%@ssh.invalid';
UPDATE "account" SET "kind" = 'guest' WHERE "passwordHash" = '!key-only' AND "emailKey" LIKE 'guest-%@guest.ssh.invalid';

-- v15-usage-counts (sqlite)
CREATE TABLE "usage_count" ("day" TEXT NOT NULL, "event" TEXT NOT NULL, "screen" TEXT NOT NULL, "action" TEXT NOT NULL, "item" TEXT NOT NULL, "count" BIGINT NOT NULL, PRIMARY KEY ("day", "event", "screen", "action", "item"));

-- v15-usage-counts (postgres)
CREATE TABLE "usage_count" ("day" TEXT NOT NULL, "event" TEXT NOT NULL, "screen" TEXT NOT NULL, "action" TEXT NOT NULL, "item" TEXT NOT NULL, "count" BIGINT NOT NULL, PRIMARY KEY ("day", "event", "screen", "action", "item"));

-- v16-accounts-as-changes (postgres)
CREATE OR REPLACE FUNCTION fakenft_refresh_writers() RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  t RECORD;
  named TEXT;
  defaults TEXT;
  puts TEXT := '';
  adds TEXT := '';
  drops TEXT := '';
BEGIN
  FOR t IN SELECT * FROM (VALUES ('profile', 'id'), ('orders', 'id'), ('account', 'userID'), ('user', 'id'),
      ('purchase', NULL), ('session', 'tokenHash'), ('ssh_key', 'fingerprint')) AS x(tbl, key) LOOP
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum),
        string_agg(COALESCE(pg_get_expr(d.adbin, d.adrelid), 'NULL') || '::'
          || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
      INTO named, defaults
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = quote_ident(t.tbl)::regclass AND a.attnum > 0 AND NOT a.attisdropped;
    IF t.key IS NOT NULL THEN
      puts := puts || format(
        '  IF tbl = %L THEN UPDATE %I AS r SET (%s) = (SELECT %s FROM jsonb_populate_record(r, fields)) '
        'WHERE r.%I = fields->>%L; RETURN; END IF;' || chr(10), t.tbl, t.tbl, named, named, t.key, t.key);
      drops := drops || format(
        '  IF tbl = %L THEN DELETE FROM %I WHERE %I = key_value; RETURN; END IF;' || chr(10),
        t.tbl, t.tbl, t.key);
    END IF;
    adds := adds || format(
      '  IF tbl = %L THEN INSERT INTO %I (%s) SELECT %s FROM jsonb_populate_record(ROW(%s)::%I, fields); '
      'RETURN; END IF;' || chr(10), t.tbl, t.tbl, named, named, defaults, t.tbl);
  END LOOP;
  EXECUTE 'CREATE OR REPLACE FUNCTION fakenft_put_row(tbl TEXT, fields JSONB) RETURNS VOID '
    'LANGUAGE plpgsql AS $f$ BEGIN' || chr(10) || puts
    || '  RAISE EXCEPTION ''fakenft_put_row: no table %'', tbl;' || chr(10) || 'END $f$';
  EXECUTE 'CREATE OR REPLACE FUNCTION fakenft_add_row(tbl TEXT, fields JSONB) RETURNS VOID '
    'LANGUAGE plpgsql AS $f$ BEGIN' || chr(10) || adds
    || '  RAISE EXCEPTION ''fakenft_add_row: no table %'', tbl;' || chr(10) || 'END $f$';
  EXECUTE 'CREATE OR REPLACE FUNCTION fakenft_drop_row(tbl TEXT, key_value TEXT) RETURNS VOID '
    'LANGUAGE plpgsql AS $f$ BEGIN' || chr(10) || drops
    || '  RAISE EXCEPTION ''fakenft_drop_row: no table %'', tbl;' || chr(10) || 'END $f$';
END
$$;
CREATE FUNCTION fakenft_apply(batch JSONB, log_length BIGINT, writer TEXT)
RETURNS BIGINT[] LANGUAGE plpgsql AS $$
DECLARE
  c JSONB;
  r JSONB;
  nth INT;
  owner_id TEXT;
  counted BIGINT;
  numbered BIGINT[] := '{}';
BEGIN
  IF jsonb_array_length(batch) > 1 THEN
    PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
      WHERE p.id IN (SELECT x->>'owner' FROM jsonb_array_elements(batch) AS x)
      ORDER BY p.id COLLATE "C" FOR UPDATE;
  END IF;
  FOR nth IN 0 .. jsonb_array_length(batch) - 1 LOOP
    c := batch->nth;
    owner_id := c->>'owner';
    IF c ? 'expectedProfile' THEN
      PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
        WHERE p.id = owner_id AND p.version = (c->>'expectedProfile')::BIGINT
          AND o.version = (c->>'expectedOrder')::BIGINT FOR UPDATE;
      IF NOT FOUND OR (c ? 'expectedSessions'
          AND ARRAY(SELECT s."tokenHash" FROM session s WHERE s."userID" = owner_id ORDER BY 1)
            <> ARRAY(SELECT x FROM jsonb_array_elements_text(c->'expectedSessions') AS x ORDER BY 1)) THEN
        numbered := numbered || 0::BIGINT;
        CONTINUE;
      END IF;
    ELSE
      PERFORM 1 FROM store_state WHERE id = 1 FOR UPDATE;
      IF EXISTS (SELECT 1 FROM profile WHERE id = owner_id) OR (c ? 'lastUserSeq'
          AND (SELECT COALESCE(MAX(seq), -1) FROM "user") <> (c->>'lastUserSeq')::BIGINT) THEN
        numbered := numbered || 0::BIGINT;
        CONTINUE;
      END IF;
      IF EXISTS (SELECT 1 FROM account WHERE "emailKey" = c->>'emailKey') THEN
        numbered := numbered || (-1)::BIGINT;
        CONTINUE;
      END IF;
    END IF;
    FOR r IN SELECT * FROM jsonb_array_elements(COALESCE(c->'drop', '[]'::jsonb)) LOOP
      PERFORM fakenft_drop_row(r->>'table', r->>'key');
    END LOOP;
    FOR r IN SELECT * FROM jsonb_array_elements(COALESCE(c->'put', '[]'::jsonb)) LOOP
      PERFORM fakenft_put_row(r->>'table', r->'row');
    END LOOP;
    IF COALESCE((c->>'forgetPaid')::BOOLEAN, false) THEN DELETE FROM purchase WHERE owner = owner_id; END IF;
    FOR r IN SELECT * FROM jsonb_array_elements(COALESCE(c->'add', '[]'::jsonb)) LOOP
      PERFORM fakenft_add_row(r->>'table', r->'row');
    END LOOP;
    UPDATE store_state SET generation = generation + 1 WHERE id = 1 RETURNING generation INTO counted;
    INSERT INTO change_log (generation, owner, users, sessions) VALUES (counted, owner_id,
      COALESCE((c->>'users')::BOOLEAN, false), COALESCE((c->>'sessions')::BOOLEAN, false));
    IF counted % 1000 = 0 THEN DELETE FROM change_log WHERE generation <= counted - log_length; END IF;
    PERFORM pg_notify('fakenft_changes', counted || ' ' || writer || COALESCE(' ' || (c->>'rows'), ''));
    numbered := numbered || counted;
  END LOOP;
  RETURN numbered;
END
$$;

-- v17-named-tokens (sqlite)
ALTER TABLE "session" ADD COLUMN "name" TEXT NOT NULL DEFAULT '';
ALTER TABLE "session" ADD COLUMN "expiresAt" TEXT NOT NULL DEFAULT '';

-- v17-named-tokens (postgres)
ALTER TABLE "session" ADD COLUMN "name" TEXT NOT NULL DEFAULT '';
ALTER TABLE "session" ADD COLUMN "expiresAt" TEXT NOT NULL DEFAULT '';
