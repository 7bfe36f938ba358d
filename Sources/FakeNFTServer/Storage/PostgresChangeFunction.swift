/// The functions behind a change on PostgreSQL: one change (migration `v7-change-notifies-its-rows`
/// of ``StorageSchema``, which replaced the one of an earlier `v6-change-in-one-call`), and a
/// batch of them (`v8-changes-in-batches`).
enum PostgresChangeFunction {
    /// An owner's change in one call (one round trip, PostgreSQL only): the rows as ``Store``'s
    /// rules made them from the ones it read at `expected_profile`/`expected_order` versions.
    /// Locks the owner's profile and order and checks those versions (NULL: they moved on, read
    /// again), writes the rows, and last counts the generation, logs the change and notifies:
    /// the counter's row lock is held for that statement and the commit only, inside the
    /// database, never across a round trip. Only the rows that changed are written: the profile
    /// and the order when their new version is not NULL, the account when its `spent` is not,
    /// the row in `/users` when `users_changed`. The notification names the `writer`, which has
    /// the change already and need not read it again, and carries `rows_json` when the writer
    /// sent it (``NotifiedChange``: what other servers' read models show of the change, so they
    /// need not read it back either).
    static let sql = """
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
          PERFORM pg_notify('\(PostgresDatabase.channel)', counted || ' ' || writer || COALESCE(' ' || rows_json, ''));
          RETURN counted;
        END
        $$
        """

    /// `v6-change-in-one-call`'s function, dropped by `v7-change-notifies-its-rows` (the new one
    /// has one more argument: without the drop both would be there, overloads of one name).
    static let dropFirst = """
        DROP FUNCTION IF EXISTS fakenft_change(TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT,
          BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT)
        """

    /// A batch of changes of different owners in one call and one commit (migration
    /// `v8-changes-in-batches`), given as a JSON array (``PostgresChangeArguments``): it first locks
    /// every owner's profile and order in one order (so that two batches never wait for each
    /// other's locks in a circle, and none holds the generation's row while it waits for an
    /// owner), then runs ``sql`` for each change, in the batch's order. Returns each change's
    /// generation, in that order; 0 for a change whose rows moved on.
    static let batchSQL = """
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
}
