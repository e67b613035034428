# idxlab - GNU Makefile.
#
#   make            build ./idxlab
#   make run        install missing packages, build, run on SQLite
#   make test       install missing packages, build, run the test suite
#   make check      the tests under ASan+UBSan, and the threaded ones under TSan
#   make lint       clang-format (check mode), cppcheck, groff -ww -z on the man page
#   make bench      benchmarks (bench/)
#   make deps       install the Debian packages idxlab needs (apt-get; sudo if not root)
#   make install PREFIX=/usr/local

VERSION := 0.1.0
PREFIX ?= /usr/local
CC ?= cc
PKGS := ncursesw sqlite3 libpq libmongoc-1.0 jansson wiredtiger

# Debian packages: libraries (pkg-config name -> package) and tools.
DEB_LIBS := pkg-config libncurses-dev libsqlite3-dev libpq-dev libmongoc-dev libbson-dev \
	libjansson-dev libwiredtiger-dev
DEB_TOOLS := strace tmux groff-base cppcheck clang-format procps postgresql python3 python3-mockupdb util-linux

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

SRC := $(wildcard src/*.c src/engines/*.c src/probes/*.c src/ui/*.c)
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

# Unit tests link the library objects (everything but main.c).
$(BUILD)/tests/unit: tests/unit.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $^ $(LDLIBS)

# ---- packages -------------------------------------------------------------

deps:
	@missing=""; \
	for p in $(DEB_LIBS) $(DEB_TOOLS); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all packages present"; exit 0; fi; \
	echo "deps: installing:$$missing"; \
	if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	$$SUDO apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing

# Install packages only when one is missing (one dpkg-query: fast when all is there).
deps-check:
	@n=$$(dpkg-query -W -f='$${db:Status-Status}\n' $(DEB_LIBS) $(DEB_TOOLS) 2>/dev/null | \
		grep -c '^installed$$'); \
	[ "$$n" -eq $(words $(DEB_LIBS) $(DEB_TOOLS)) ] || $(MAKE) --no-print-directory deps

# ---- run / test -----------------------------------------------------------

run: deps-check
	@$(MAKE) --no-print-directory idxlab
	./idxlab

test: deps-check
	@$(MAKE) --no-print-directory idxlab $(BUILD)/tests/unit
	@IDXLAB=$(CURDIR)/idxlab UNIT=$(CURDIR)/$(BUILD)/tests/unit sh tests/run.sh

SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
check: deps-check
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

bench: deps-check
	@$(MAKE) --no-print-directory idxlab $(BUILD)/bench/bare_sqlite $(BUILD)/bench/bare_wt
	@IDXLAB=$(CURDIR)/idxlab BARE=$(CURDIR)/$(BUILD)/bench/bare_sqlite sh bench/run.sh
	@IDXLAB=$(CURDIR)/idxlab BARE=$(CURDIR)/$(BUILD)/bench/bare_wt sh bench/wt.sh
	@IDXLAB=$(CURDIR)/idxlab sh bench/pg.sh
	@IDXLAB=$(CURDIR)/idxlab sh bench/dash.sh

BARE_DEPS := bench/bare_args.c bench/bare_args.h $(BUILD)/src/keys.o $(BUILD)/src/knobs.o \
	$(BUILD)/src/units.o $(BUILD)/src/err.o $(BUILD)/src/redact.o

$(BUILD)/bench/bare_sqlite: bench/bare_sqlite.c $(BARE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $(filter %.c %.o,$^) $(LDLIBS)

$(BUILD)/bench/bare_wt: bench/bare_wt.c src/engines/wt_layout.h $(BARE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -Isrc -o $@ $(filter %.c %.o,$^) -lwiredtiger -lm

# ---- lint / install -------------------------------------------------------

FORMAT_SRC = $(SRC) $(wildcard src/*.h src/*/*.h tests/*.c bench/*.c bench/*.h)
lint:
	clang-format --dry-run --Werror $(FORMAT_SRC)
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		--inline-suppr --std=c11 -D__GNUC__ -Isrc $(SRC)
	groff -man -ww -z man/idxlab.1
	@echo "lint: clean"

format:
	clang-format -i $(FORMAT_SRC)

install: idxlab
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 idxlab $(DESTDIR)$(PREFIX)/bin/idxlab
	install -m 644 man/idxlab.1 $(DESTDIR)$(PREFIX)/share/man/man1/idxlab.1

clean:
	rm -rf build build-asan build-tsan idxlab

.PHONY: all deps deps-check run test check bench lint format install clean
