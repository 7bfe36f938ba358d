/// The function behind changes on PostgreSQL (migration `v8-changes-in-batches` of
/// ``StorageSchema``, which replaced the one-change function of `v6-change-in-one-call` and
/// `v7-change-notifies-its-rows`).
enum PostgresChangeFunction {
    /// A batch of changes of different owners in one call (one round trip, one commit: PostgreSQL
    /// only), given as a JSON array (``PostgresChangeArguments``): each the rows as ``Store``'s rules
    /// made them from the ones read at `expected_profile`/`expected_order` versions. Owner by owner,
    /// in one order for every batch (so that two batches never wait for each other's locks in a
    /// circle), it locks the profile and the order and checks those versions (not there: they moved
    /// on, that change is left out and read again), and writes the rows that changed: the profile
    /// and the order when their new version is not NULL, the account when its `spent` is not, the
    /// row in `/users` when `users_changed`. Last, it counts the changes written in `store_state`
    /// (one row lock for the whole batch, held for this statement and the commit only, inside the
    /// database), logs each and notifies each: the notification names the `writer`, which has the
    /// change already, and carries `rows_json` when the writer sent it (``NotifiedChange``: what
    /// other servers' read models show of the change, so they need not read it back). Returns each
    /// change's generation, in the batch's order; 0 for a change left out.
    static let sql = """
        CREATE OR REPLACE FUNCTION fakenft_change_batch(batch TEXT, kept BIGINT, writer TEXT)
        RETURNS BIGINT[] LANGUAGE plpgsql AS $$
        DECLARE
          c RECORD;
          written INT[] := '{}';
          owners TEXT[] := '{}';
          users BOOLEAN[] := '{}';
          shown TEXT[] := '{}';
          numbered BIGINT[] := array_fill(0::BIGINT, ARRAY[jsonb_array_length(batch::jsonb)]);
          counted BIGINT;
          n INT;
        BEGIN
          FOR c IN SELECT * FROM jsonb_to_recordset(batch::jsonb) AS x(
              nth INT, owner_id TEXT, expected_profile BIGINT, expected_order BIGINT,
              p_name TEXT, p_avatar TEXT, p_description TEXT, p_website TEXT, p_nfts TEXT, p_likes TEXT,
              p_version BIGINT,
              o_nfts TEXT, o_version BIGINT, a_spent DOUBLE PRECISION,
              u_name TEXT, u_avatar TEXT, u_description TEXT, u_website TEXT, u_nfts TEXT, u_count BIGINT,
              u_rating TEXT,
              users_changed BOOLEAN, rows_json TEXT)
            ORDER BY owner_id COLLATE "C"
          LOOP
            PERFORM 1 FROM profile p JOIN orders o ON o.id = p.id
              WHERE p.id = c.owner_id AND p.version = c.expected_profile AND o.version = c.expected_order FOR UPDATE;
            CONTINUE WHEN NOT FOUND;
            IF c.p_version IS NOT NULL THEN
              UPDATE profile SET name = c.p_name, avatar = c.p_avatar, description = c.p_description,
                website = c.p_website, nfts = c.p_nfts, likes = c.p_likes, version = c.p_version WHERE id = c.owner_id;
            END IF;
            IF c.o_version IS NOT NULL THEN
              UPDATE orders SET nfts = c.o_nfts, version = c.o_version WHERE id = c.owner_id;
            END IF;
            IF c.a_spent IS NOT NULL THEN UPDATE account SET spent = c.a_spent WHERE "userID" = c.owner_id; END IF;
            IF c.users_changed THEN
              UPDATE "user" SET name = c.u_name, avatar = c.u_avatar, description = c.u_description,
                website = c.u_website, nfts = c.u_nfts, "nftCount" = c.u_count, rating = c.u_rating
                WHERE id = c.owner_id;
            END IF;
            written := array_append(written, c.nth);
            owners := array_append(owners, c.owner_id);
            users := array_append(users, c.users_changed);
            shown := array_append(shown, c.rows_json);
          END LOOP;
          n := cardinality(written);
          IF n = 0 THEN RETURN numbered; END IF;
          UPDATE store_state SET generation = generation + n WHERE id = 1 RETURNING generation - n INTO counted;
          INSERT INTO change_log (generation, owner, users, sessions)
            SELECT counted + i, owners[i], users[i], false FROM generate_series(1, n) AS i;
          IF (counted + n) / 1000 > counted / 1000 THEN
            DELETE FROM change_log WHERE generation <= counted + n - kept;
          END IF;
          FOR i IN 1..n LOOP
            numbered[written[i]] := counted + i;
            PERFORM pg_notify('\(PostgresDatabase.channel)',
              (counted + i) || ' ' || writer || COALESCE(' ' || shown[i], ''));
          END LOOP;
          RETURN numbered;
        END
        $$
        """

    /// The one-change functions before it: `v6-change-in-one-call`'s, and
    /// `v7-change-notifies-its-rows`'s (one argument more), which `v8-changes-in-batches` drops.
    static let dropEarlier = [
        """
        DROP FUNCTION IF EXISTS fakenft_change(TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT,
          BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT)
        """,
        """
        DROP FUNCTION IF EXISTS fakenft_change(TEXT, BIGINT, BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT,
          BIGINT, DOUBLE PRECISION, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BOOLEAN, BIGINT, TEXT, TEXT)
        """,
    ]
}
