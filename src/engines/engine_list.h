/* engine_list.h - the engines idxlab knows, each named once.
 *
 * ENGINE_LIST(X) calls X(ID, name, package) once per engine, in the order
 * of the engine knob's values: ID makes E_ID (enum engine_kind), name is the --engine word and the prefix
 * of its ops (name_engine, a struct engine_ops), package is the Debian
 * package of the library it needs to be built (a message tells a user of a
 * build without it what to install). Everything else about an engine is
 * in its ops: its defaults, the knobs only it honours, its version, its
 * calls, and what the dashboard says of it (its telling figure, how the
 * title names the database idxlab made for it); nothing outside
 * src/engines/ names an engine.
 *
 * Adding an engine: one row here, its sources under src/engines/, and,
 * when it needs a library, its lines in the Makefile (its pkg-config module
 * and sources; a library-free engine's folder is built as it is). A row whose
 * engine is not built (its library missing) stays: the engine is listed as
 * "not built" and its ops are NULL in engine_table[]. */
#ifndef IDXLAB_ENGINE_LIST_H
#define IDXLAB_ENGINE_LIST_H

#define ENGINE_LIST(X)                                                                             \
	X(SQLITE, sqlite, "libsqlite3-dev")                                                        \
	X(POSTGRES, postgres, "libpq-dev")                                                         \
	X(MONGO, mongo, "libmongoc-dev")                                                           \
	X(WIREDTIGER, wiredtiger, "libwiredtiger-dev")

/* The engine knob's default: embedded, nothing to set up. */
#define ENGINE_DEFAULT "sqlite"

#endif
