# idxlab - GNU Makefile.
#
#   make            build ./idxlab
#   make run        install missing build packages, build, run on SQLite
#   make test       install missing build and test packages, build, run the test suite
#   make check      the tests under ASan+UBSan, and the threaded ones under TSan
#   make lint       clang-format (check mode), cppcheck, groff -ww -z on the man page
#   make bench      benchmarks (bench/)
#   make fuzz       fuzz the spec and --schema-from readers on the ASan+UBSan build
#   make hacking    rewrite HACKING.md's file list from the sources' first comment lines
#   make deps       install all the Debian packages below (apt-get; sudo if not root)
#   make install PREFIX=/usr/local

VERSION := 0.1.0
PREFIX ?= /usr/local
CC ?= cc
# The libraries every build needs (SQLite is also the default engine's; the
# unit tests read MongoDB documents with libbson; --plot draws with cairo,
# and gives fontconfig's fonts back when done).
PKGS := ncursesw sqlite3 jansson libbson-1.0 cairo fontconfig

# The optional engines (rows of src/engines/engine_list.h): for each, the
# pkg-config module of its library and its sources. An engine whose module
# pkg-config cannot find is left out: make says so, `idxlab --version` lists
# it as not built and `--engine NAME` says what to install. ENGINES=... picks
# a subset by hand (make ENGINES="postgres mongo").
ENGINES_OPTIONAL := postgres mongo wiredtiger
postgres_PKG := libpq
postgres_SRC := $(wildcard src/engines/postgres/*.c)
mongo_PKG := libmongoc-1.0
mongo_SRC := $(wildcard src/engines/mongo/*.c)
wiredtiger_PKG := wiredtiger
wiredtiger_SRC := $(wildcard src/engines/wiredtiger/*.c)
ENGINES ?= $(foreach e,$(ENGINES_OPTIONAL),$(if $(shell pkg-config --exists $($(e)_PKG) \
	2>/dev/null && echo y),$(e)))
ENGINES_LEFT_OUT := $(filter-out $(ENGINES),$(ENGINES_OPTIONAL))
ifneq ($(ENGINES_LEFT_OUT),)
$(info idxlab: building without $(ENGINES_LEFT_OUT): left out of ENGINES, or pkg-config \
	finds no $(foreach e,$(ENGINES_LEFT_OUT),$($(e)_PKG)) (make deps installs them))
endif
PKGS += $(foreach e,$(ENGINES),$($(e)_PKG))
# -DIDXLAB_HAVE_MONGO ...: for the unit tests of an engine's parts.
ENGINE_DEFS := $(foreach e,$(shell echo $(ENGINES) | tr a-z A-Z),-DIDXLAB_HAVE_$(e))

# Debian packages, by what needs them. Building and running (make run):
# pkg-config and the libraries of PKGS.
DEB_RUN := pkg-config libncurses-dev libsqlite3-dev libpq-dev libmongoc-dev libbson-dev \
	libjansson-dev libwiredtiger-dev libcairo2-dev libfontconfig-dev
# The tests (make test, check, bench): the PostgreSQL server for the
# throwaway servers (make run opens SQLite), tmux to drive the dashboard,
# strace, pgrep, setpriv and mount, python3 and the MongoDB wire-protocol peer,
# sqlite3 to read the tables idxlab left in a --dsn file, xmllint and pdfinfo
# to check the --plot charts.
DEB_TEST := postgresql tmux strace procps util-linux python3 python3-mockupdb sqlite3 \
	libxml2-utils poppler-utils jq
# make lint.
DEB_LINT := clang-format cppcheck groff-base

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
	-Wwrite-strings
CFLAGS ?= -O2 -g
# override: `make CFLAGS=...` (make check does) adds to these, never drops them.
override CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -DIDXLAB_VERSION='"$(VERSION)"'
ifeq ($(WERROR),1)
override CFLAGS += -Werror
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
LDLIBS += $(PKG_LIBS) -lpthread -lm

ALL_SRC := $(wildcard src/*.c src/engines/*.c src/engines/*/*.c src/probes/*.c src/ui/*.c)
SRC := $(filter-out $(foreach e,$(ENGINES_LEFT_OUT),$($(e)_SRC)),$(ALL_SRC))
LIB_SRC := $(filter-out src/main.c,$(SRC))

BUILD ?= build
OBJ := $(patsubst %.c,$(BUILD)/%.o,$(SRC))
LIB_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(LIB_SRC))

all: idxlab

idxlab: $(BUILD)/idxlab
	cp $< $@.tmp && mv -f $@.tmp $@

$(BUILD)/idxlab: $(OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

-include $(OBJ:.o=.d)

# The WAL sync counter preloaded into the throwaway PostgreSQL server
# (src/shim/pg_walsync.c): a shared object built without the sanitizers (it
# runs inside postgres), carried inside idxlab (postgres/walsync.c).
WALSYNC_SO := $(BUILD)/shim/pg_walsync.so
$(WALSYNC_SO): src/shim/pg_walsync.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -D_GNU_SOURCE $(WARN) $(if $(filter 1,$(WERROR)),-Werror) -fPIC -shared \
		-o $@ $<
$(BUILD)/src/engines/postgres/walsync.o: $(WALSYNC_SO)
$(BUILD)/src/engines/postgres/walsync.o: PKG_CFLAGS += -DPG_WALSYNC_SO='"$(CURDIR)/$(WALSYNC_SO)"'

# Unit tests: tests/unit/ mirrors src/ (the cases of src/ui/history.c in
# tests/unit/ui/history.c), every .c under it compiled, tests/unit/main.c the
# runner (its top says how a new file is wired; UNIT_PATHS lets its case
# unit/wired check that every file here is). They link the library objects
# (everything but src/main.c).
UNIT_SRC := $(wildcard tests/unit/*.c tests/unit/*/*.c tests/unit/*/*/*.c)
$(BUILD)/tests/unit: $(UNIT_SRC) tests/unit/unit.h $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ENGINE_DEFS) $(PKG_CFLAGS) -Isrc -Itests/unit \
		-DUNIT_PATHS='"$(UNIT_SRC)"' -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# ---- packages -------------------------------------------------------------

# make deps installs those of DEPS (default: all) that are missing. Debian's
# postgresql package starts a system server (port 5432) as it installs;
# idxlab starts its own, so while the install runs a policy-rc.d (unless the
# system has one) tells the packages to start no service.
DEPS = $(DEB_RUN) $(DEB_TEST) $(DEB_LINT)
POLICY_RC := /usr/sbin/policy-rc.d
deps:
	@missing=""; \
	for p in $(DEPS); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; exit 0; fi; \
	echo "deps: installing:$$missing"; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	made=""; \
	if [ ! -e $(POLICY_RC) ]; then \
		printf '#!/bin/sh\n# make deps (idxlab): start no service while installing\nexit 101\n' | \
			$$SUDO tee $(POLICY_RC) >/dev/null && $$SUDO chmod 755 $(POLICY_RC) && made=1; \
	fi; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	rc=$$?; \
	if [ -n "$$made" ]; then $$SUDO rm -f $(POLICY_RC); fi; \
	exit $$rc

# $(call deps_check,PACKAGES): install them only when one is missing (one
# dpkg-query: fast when all are there).
deps_check = @n=$$(dpkg-query -W -f='$${db:Status-Status}\n' $(1) 2>/dev/null | \
		grep -c '^installed$$'); \
	[ "$$n" -eq $(words $(1)) ] || $(MAKE) --no-print-directory deps DEPS="$(strip $(1))"

deps-run:
	$(call deps_check,$(DEB_RUN))
deps-test:
	$(call deps_check,$(DEB_RUN) $(DEB_TEST))
deps-lint:
	$(call deps_check,$(DEB_LINT))

# ---- run / test -----------------------------------------------------------

run: deps-run
	@$(MAKE) --no-print-directory idxlab
	./idxlab

# The bench tools are built here too (not run): they link the library
# objects, so a change there that breaks them fails the test run, not the
# next make bench.
BENCH_BIN := $(BUILD)/bench/bare_sqlite $(BUILD)/bench/bare_wt $(BUILD)/bench/bare_pg \
	$(BUILD)/bench/plot_time

test: deps-test
	@$(MAKE) --no-print-directory idxlab $(BUILD)/tests/unit $(BENCH_BIN)
	@IDXLAB=$(CURDIR)/idxlab UNIT=$(CURDIR)/$(BUILD)/tests/unit sh tests/run.sh

SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check: deps-test
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="-O1 -g $(SAN)" WERROR=1 \
		LDFLAGS="$(SAN)" build-asan/idxlab build-asan/tests/unit
	@echo "== ASan+UBSan: the whole suite"
	@IDXLAB=$(CURDIR)/build-asan/idxlab UNIT=$(CURDIR)/build-asan/tests/unit \
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		IDXLAB_SANITIZED=1 sh tests/run.sh
	@$(MAKE) --no-print-directory BUILD=build-tsan CFLAGS="-O1 -g -fsanitize=thread" WERROR=1 \
		LDFLAGS="-fsanitize=thread" build-tsan/idxlab
	@echo "== TSan: the threaded tests"
	@IDXLAB=$(CURDIR)/build-tsan/idxlab TSAN_OPTIONS=halt_on_error=1 IDXLAB_SANITIZED=1 \
		sh tests/run.sh threads

# The readers of outside text fuzzed on the ASan+UBSan build (tests/fuzz.py):
# FUZZ_SPECS mutated spec files and FUZZ_SOURCES generated SQLite tables read
# by --schema-from (~25 min at the defaults; FUZZ_SEED picks the sequence).
FUZZ_SPECS ?= 10000
FUZZ_SOURCES ?= 1000
FUZZ_SEED ?= 1
fuzz: deps-test
	@$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="-O1 -g $(SAN)" WERROR=1 \
		LDFLAGS="$(SAN)" build-asan/idxlab
	@IDXLAB=$(CURDIR)/build-asan/idxlab ASAN_OPTIONS=detect_leaks=1 \
		python3 tests/fuzz.py spec $(FUZZ_SPECS) $(FUZZ_SEED)
	@IDXLAB=$(CURDIR)/build-asan/idxlab ASAN_OPTIONS=detect_leaks=1 \
		python3 tests/fuzz.py source $(FUZZ_SOURCES) $(FUZZ_SEED)

bench: deps-test
	@$(MAKE) --no-print-directory idxlab $(BENCH_BIN)
	@IDXLAB=$(CURDIR)/idxlab BARE=$(CURDIR)/$(BUILD)/bench/bare_sqlite sh bench/run.sh
	@IDXLAB=$(CURDIR)/idxlab BARE=$(CURDIR)/$(BUILD)/bench/bare_wt sh bench/wt.sh
	@IDXLAB=$(CURDIR)/idxlab BARE=$(CURDIR)/$(BUILD)/bench/bare_pg sh bench/pg.sh
	@IDXLAB=$(CURDIR)/idxlab sh bench/repeat.sh
	@IDXLAB=$(CURDIR)/idxlab BARE=$(CURDIR)/$(BUILD)/bench/bare_sqlite sh bench/reads.sh
	@IDXLAB=$(CURDIR)/idxlab sh bench/dash.sh
	@PLOT_TIME=$(CURDIR)/$(BUILD)/bench/plot_time sh bench/plot.sh
	@IDXLAB=$(CURDIR)/idxlab sh bench/own-table.sh

# Every article preset at the article's own size, timed whole against the
# same work done by the bare loops (~40 min: not part of make bench;
# PRESETS, SCALE, REPS: bench/presets.sh).
bench-presets: deps-test
	@$(MAKE) --no-print-directory idxlab $(BUILD)/bench/bare_pg $(BUILD)/bench/bare_sqlite \
		$(BUILD)/bench/bare_wt
	@IDXLAB=$(CURDIR)/idxlab BARE_PG=$(CURDIR)/$(BUILD)/bench/bare_pg \
		BARE_SQLITE=$(CURDIR)/$(BUILD)/bench/bare_sqlite \
		BARE_WT=$(CURDIR)/$(BUILD)/bench/bare_wt sh bench/presets.sh

# The bare loops read their arguments with idxlab's own knob and table-spec
# code, so they link the library objects, like the unit tests (a hand-kept
# list of objects broke each time that code grew a dependency). Their
# fsync() then goes through the same counting interposer as idxlab's
# (src/probes/sync_count.c: one relaxed atomic add per call): both sides
# pay it alike.
BARE_DEPS := bench/bare_args.c bench/bare_args.h $(LIB_OBJ)

$(BUILD)/bench/bare_sqlite: bench/bare_sqlite.c $(BARE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $(filter %.c %.o,$^) $(LDLIBS)

$(BUILD)/bench/bare_wt: bench/bare_wt.c src/engines/wiredtiger/layout.h $(BARE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $(filter %.c %.o,$^) $(LDLIBS)

$(BUILD)/bench/bare_pg: bench/bare_pg.c $(BARE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# The chart's drawing time links the library objects, like the unit tests.
$(BUILD)/bench/plot_time: bench/plot_time.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# ---- lint / install -------------------------------------------------------

FORMAT_SRC = $(ALL_SRC) src/shim/pg_walsync.c $(wildcard src/*.h src/*/*.h src/*/*/*.h tests/*.c tests/*.h bench/*.c bench/*.h) \
	$(UNIT_SRC) tests/unit/unit.h
lint: deps-lint
	clang-format --dry-run --Werror $(FORMAT_SRC)
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--inline-suppr --std=c11 -D__GNUC__ -Isrc $(ALL_SRC)
	groff -man -ww -z man/idxlab.1
	@echo "lint: clean"

format:
	clang-format -i $(FORMAT_SRC)

install: idxlab
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 idxlab $(DESTDIR)$(PREFIX)/bin/idxlab
	install -m 644 man/idxlab.1 $(DESTDIR)$(PREFIX)/share/man/man1/idxlab.1

# HACKING.md's file list (between its <!-- files: --> lines), from each
# source file's first comment line; tests/t_hacking.sh checks it.
hacking:
	sh tests/hacking_files.sh -w HACKING.md

clean:
	rm -rf build build-asan build-tsan idxlab

.PHONY: all deps deps-run deps-test deps-lint run test check bench bench-presets fuzz lint format install clean hacking
