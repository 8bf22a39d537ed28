package serverbench.app

import java.sql.Connection

/**
 * What the database family reads and writes: a sequence for `nextval`, [USERS] rows to read by primary key, and a
 * table to insert into. Every name starts with `serverbench_`, so an existing database given with
 * `-Dserverbench.db.url` keeps its own tables. Creating is idempotent; the users are the same on every run, and the
 * insert table starts empty each time, so an insert's cost does not depend on earlier runs.
 */
object DatabaseSchema {
    const val USERS = 10_000
    const val SEQUENCE = "serverbench_seq"
    const val USER_TABLE = "serverbench_users"
    const val INSERT_TABLE = "serverbench_events"

    /** The row [selectById][USER_TABLE] returns for [id]: its name, which the family's responses carry. */
    fun name(id: Int) = "user-$id"

    fun create(connection: Connection) {
        val autoCommit = connection.autoCommit
        connection.autoCommit = false
        try {
            connection.createStatement().use { s ->
                s.execute("create sequence if not exists $SEQUENCE")
                s.execute(
                    "create table if not exists $USER_TABLE " +
                        "(id integer primary key, name text not null, email text not null)",
                )
                s.execute(
                    "insert into $USER_TABLE select g, 'user-' || g, 'user-' || g || '@example.com' " +
                        "from generate_series(1, $USERS) g on conflict (id) do nothing",
                )
                s.execute(
                    "create table if not exists $INSERT_TABLE (id bigserial primary key, " +
                        "user_id integer not null, at timestamptz not null default now())",
                )
                s.execute("truncate $INSERT_TABLE")
                s.execute("analyze $USER_TABLE")
            }
            connection.commit()
        } catch (e: Exception) {
            runCatching { connection.rollback() }.exceptionOrNull()?.let(e::addSuppressed)
            throw e
        } finally {
            runCatching { connection.autoCommit = autoCommit }
        }
    }
}
