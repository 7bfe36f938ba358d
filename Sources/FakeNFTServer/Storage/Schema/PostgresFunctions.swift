/// The PostgreSQL functions of ``StorageSchema``'s migrations, as they shipped: each text is
/// frozen, since a database that ran a migration never runs it again (`MigrationTextTests` fails
/// when one changes). A change to a function is a new migration that drops the old one by its
/// full signature (an overload would be left beside it otherwise) and creates the new one.
enum PostgresFunctions {
    /// `v7-change-notifies-its-rows`: drops `v6-change-in-one-call`'s function.
    static let v7DropV6 = """
        DROP FUNCTION IF EXISTS fakenft_change(TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT,
          BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT)
        """

    /// `v7-change-notifies-its-rows`: one change in one call, its notification carrying its rows.
    static let v7Change = """
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
        $$
        """

    /// `v8-changes-in-batches`: a batch of v7's changes in one call and one commit.
    static let v8Batch = """
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
        $$
        """

    /// `v9-changes-as-rows`: drops v7's and v8's functions, whose 24 arguments listed the
    /// profile's, order's and user's columns by position.
    static let v9DropV7AndV8 = [
        """
        DROP FUNCTION fakenft_change_batch(TEXT, BIGINT, TEXT)
        """,
        """
        DROP FUNCTION fakenft_change(TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BIGINT,
          DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT, TEXT)
        """,
    ]

    /// `v9-changes-as-rows`: changes of different owners in one call and one commit, a lone change
    /// a batch of one (``PostgresChange``: each row that changed as a JSON object keyed by its
    /// columns, read by its table's own type). A batch of several first locks every owner's
    /// profile and order in one order (so that two batches never wait for each other's locks in
    /// a circle, and none holds the generation's row while it waits for an owner). Then, for each
    /// change in order: its rows are locked and checked at the versions it was made from (0 in
    /// the answer when they moved on: read again), the rows given are written whole, and last it
    /// counts the generation, logs the change and notifies: the counter's row lock is held for
    /// that and the commit only. The notification names the `writer`, which has the change
    /// already, and carries the change's `rows` when given (``NotifiedChange``). Each table's
    /// columns are named once, in table order, for `ROW(record.*)`: a new column is a migration that
    /// adds it and re-creates this function with it.
    static let v9Changes = """
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
        $$
        """

    /// `v12-unlisted-users`: v9's function with the user row's new column, `listed`, in its
    /// `ROW(ur.*)` (the row type grew with it, so v9's would no longer match). Made from v9's text,
    /// which never changes (`MigrationTextTests`).
    static let v12Changes = v9Changes.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION")
        .replacingOccurrences(
            of: #""nftCount", rating) = ROW(ur.*)"#, with: #""nftCount", rating, listed) = ROW(ur.*)"#)

    /// `v13-paid-orders`: makes the functions that write a row of a table from a JSON object
    /// keyed by its columns, from the tables' columns as they are now: `fakenft_put_row(table,
    /// row)` updates the row its key names (columns the object does not name keep their values: a
    /// server that does not know a newer column leaves it as it is), `fakenft_add_row(table, row)`
    /// inserts one (columns not named take their defaults). Every server runs it after migrating
    /// (``PostgresDatabase``), so a column added by a later migration is written without any
    /// function text changing. The statements it makes name their columns (not built per call: a
    /// statement built per call is planned per call, some 100 µs a change).
    static let v13Writers = """
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
        $$
        """

    /// `v13-paid-orders`: v12's `fakenft_changes` with no table's columns in its text. Each change
    /// is `{owner, expectedProfile, expectedOrder, put: [{table, row}], forgetPaid, add: [{table,
    /// row}], users, rows}` (``PostgresChange``): the owner's profile and order are locked and
    /// checked at the versions it was made from, as before (0 in the answer when they moved on),
    /// then each `put` row is written by ``v13Writers``' `fakenft_put_row`, the owner's paid orders
    /// deleted when `forgetPaid` (a guest account handed on), each `add` row inserted; the
    /// generation counted, the change logged and notified as v9's. v12's `fakenft_changes` stays
    /// for servers of that version beside this one.
    static let v13Write = """
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
        $$
        """

    /// `v16-accounts-as-changes`: v13's `fakenft_refresh_writers` with the sign-ins' and SSH keys'
    /// tables among those it writes, and a third function it makes, `fakenft_drop_row(table, key)`,
    /// which deletes the row its key names (a sign-out, a key linked anew).
    static let v16Writers = """
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
        $$
        """

    /// `v16-accounts-as-changes`: every change of the shop's rows, a sign-up, a sign-in and a
    /// sign-out as much as a like, in one function (v13's `fakenft_write` stays for servers of that
    /// version). Each change is `{owner, expectedProfile, expectedOrder, expectedSessions, emailKey,
    /// drop: [{table, key}], put: [{table, row}], forgetPaid, add: [{table, row}], users, sessions,
    /// rows}` (``PostgresChange``). A change of an owner's rows locks and checks its profile and
    /// order at the versions it was made from and, when it changes the sign-ins, the tokens they had
    /// (0 in the answer when they moved on). A new owner's (a sign-up) takes the counter's row lock
    /// first, so that sign-ups check the address and the place of their row in `/users` one at a
    /// time: 0 when the owner has rows or its row no longer follows the last (`lastUserSeq`), -1
    /// when the address has an account. Then its rows are deleted, written and added, the
    /// generation counted, the change logged and notified as v13's.
    static let v16Apply = """
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
        $$
        """
}
