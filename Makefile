# The two commands of the README: `make solve DEAL=1` and `make test`.
# Each creates .venv and builds the C core (cffi, through setup.py) as needed.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEAL ?= 1
VARIANT ?= napoleons-tomb
ARGS ?=

.PHONY: build browser wasm site solve serve index test test-slow test-asan test-tsan study test-study test-js bench lint jslint cwarn funclen cformat format clean

$(STAMP): pyproject.toml setup.py solver/_build.py $(shell find csrc -name '*.[ch]')
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	@# the distribution's name before its rename, in a .venv made before it
	$(PY) -m pip uninstall -q -y tomb-solver 2>/dev/null || true
	$(PY) -m pip install -q -e '.[test,cluster,web]'
	touch $(STAMP)

# The package's bytecode, compiled ahead: each process of a batch (and of the
# tests) would otherwise compile the package again where the environment
# writes no bytecode (PYTHONDONTWRITEBYTECODE, as this machine's does): 0.05 s
# of CPU a process. Up-to-date files are skipped.
build: $(STAMP)
	@$(PY) -m compileall -q solver

# Prints the verdict and the numbered moves. A lost or unknown deal is an
# answer, not a failure: only an error (exit 2) fails the target.
solve: build
	@$(PY) -m solver solve $(DEAL) --variant $(VARIANT) $(ARGS); rc=$$?; [ $$rc -ne 2 ] || exit 2

# The browser tests (tests/test_web_browser.py) drive Debian's Chromium
# through Playwright; installed here when missing, as root (CI is). No
# browser is downloaded by Playwright itself.
CHROMIUM ?= /usr/bin/chromium
browser:
	@test -x $(CHROMIUM) || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
		|| echo "no Chromium at $(CHROMIUM): the browser tests are skipped (apt-get install chromium)"

# The C core compiled to WebAssembly (docs/web.md, "The core in the
# browser"): build/wasm/core.wasm, a module with no JavaScript glue that
# solver/web/static/core.js loads. Debian's clang-19, lld-19 and wasi-libc
# are installed here when missing, as root (CI is), as browser does
# Chromium; elsewhere: apt-get install clang-19 lld-19
# libclang-rt-19-dev-wasm32 wasi-libc.
WASM_CC ?= clang-19
WASM_PACKAGES = clang-19 lld-19 libclang-rt-19-dev-wasm32 wasi-libc
# What it exports: every function the API's headers declare (a line that
# starts with a type and names solver_...), the layout of their structs
# (csrc/wasm/layout.c), and malloc and free for the structs and buffers.
LPAREN := (
WASM_EXPORTS = $(shell grep -ho '^[a-z][a-z_0-9 *]*[ *]solver_[a-z0-9_]*$(LPAREN)' csrc/solver.h csrc/deck2.h csrc/games/*.h csrc/play.h \
	| grep -o 'solver_[a-z0-9_]*') solver_layout malloc free
build/wasm/core.wasm: $(shell find csrc -name '*.[ch]') Makefile
	@command -v $(WASM_CC) >/dev/null && test -f /usr/lib/wasm32-wasi/libc.a || { [ "$$(id -u)" = 0 ] \
		&& command -v apt-get >/dev/null && apt-get update -qq \
		&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(WASM_PACKAGES) >/dev/null; } \
		|| { echo "no $(WASM_CC) for wasm32-wasi: apt-get install $(WASM_PACKAGES)"; exit 1; }
	mkdir -p build/wasm
	$(WASM_CC) --target=wasm32-wasi -isystem /usr/include/wasm32-wasi -L/usr/lib/wasm32-wasi \
		-mexec-model=reactor -O3 -std=c11 -D_POSIX_C_SOURCE=200809L $(CWARN_INCLUDE) \
		$(sort $(shell find csrc -name '*.c')) $(foreach f,$(WASM_EXPORTS),-Wl,--export=$(f)) \
		-Wl,-z,stack-size=8388608 -Wl,--strip-all -o $@
wasm: build/wasm/core.wasm

# The game as a static site (docs/web.md, "The game with no server"):
# build/site/, which any static file server serves (python -m http.server
# -d build/site), its rules of play and hints run by core.wasm in the
# browser, the verdict indexes beside it, a service worker to play offline.
site: build wasm
	$(PY) -m solver.web.site build/site

# The web game on http://127.0.0.1:8000/ (PORT=0: any free port).
PORT ?= 8000
serve: build
	$(PY) -m solver serve --port $(PORT)

# The verdict index of VARIANT (docs/web.md): a batch run of DEALS into
# build/index/VARIANT.sqlite (resumable: run it again after a stop), then
# its bitset in solver/verdicts/, up to the first deal not yet decided.
DEALS ?= 1-1000000
index: build
	mkdir -p build/index
	nice -n 10 $(PY) -m solver batch --variant $(VARIANT) --deals $(DEALS) --jobs 2 --db build/index/$(VARIANT).sqlite
	$(PY) -m solver index --db build/index/$(VARIANT).sqlite --variant $(VARIANT) --deals $(DEALS)

# What CI runs (.ci/run): the linters, the suite (with the browser's tests
# and the WebAssembly core's, hence browser and wasm), then the suite again
# on the sanitized core, then the thread tests on the core under
# ThreadSanitizer, then the study build's tests.
test: lint browser wasm
	$(PY) -m pytest
	$(MAKE) test-js
	$(MAKE) test-asan
	$(MAKE) test-tsan
	$(MAKE) test-study

# The page's modules' unit tests, in Node (tests/js/*.test.js), over the
# static site (build/site: its core.wasm and its variants).
test-js: $(NODE_TOOLS) site
	node --test tests/js/

test-slow: build
	$(PY) -m pytest -m slow

# The suite again with the C core built under AddressSanitizer and
# UndefinedBehaviorSanitizer (the first report stops them): a copy of
# the package and the tests in build/asan, run from there (so that they,
# and the commands they start, import the copy; the .venv's module is
# left as it is). Every test that reaches the core runs; only the
# browser's (test_web_browser.py, test_web_page.py) are left out (Chromium
# would load the sanitizer too).
ASAN_RUN = ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	LD_PRELOAD="$$($${CC:-cc} -print-file-name=libasan.so) $$($${CC:-cc} -print-file-name=libstdc++.so)" ../../$(PY)
# $(call core_copy,KIND): the package, the tests and tools/ (which
# tests/test_funclen.py runs) copied into build/KIND, with the core built
# as _build.py --KIND builds it (a sanitizer, or the study build).
define core_copy
	rm -rf build/$(1) && mkdir -p build/$(1) && cp -r solver tests tools pyproject.toml build/$(1)/
	rm -f build/$(1)/solver/_core*.so
	$(PY) solver/_build.py --$(1) build/$(1)/solver
endef
# $(call is_copy,KIND): fails unless the module imported is the copy's.
is_copy = -c "import solver._core as c, sys; sys.exit('not the module of build/$(1): ' + c.__file__) if '/build/$(1)/' not in c.__file__ else None"
test-asan: build
	$(call core_copy,asan)
	cd build/asan && $(ASAN_RUN) $(call is_copy,asan) \
		&& $(ASAN_RUN) -m pytest -p no:cacheprovider --ignore=tests/test_web_browser.py --ignore=tests/test_web_page.py

# The tests that use threads again, with the C core built under
# ThreadSanitizer, as test-asan does: a data race in the core (between the
# thread a search runs in and the one that stops it, or two searches at
# once) stops them with a report. die_after_fork=0: one test forks the
# process after searches ran in threads and starts a search in the child,
# which TSan refuses by default; the child only runs the search, in one
# thread. The browser's are left out, as in test-asan.
TSAN_TESTS = tests/test_core.py tests/test_deck2_core.py -k "thread or stop or slow_hint" \
	tests/test_web.py::test_a_slow_hint_does_not_hold_up_other_requests
TSAN_RUN = TSAN_OPTIONS="halt_on_error=1 die_after_fork=0" \
	LD_PRELOAD="$$($${CC:-cc} -print-file-name=libtsan.so)" ../../$(PY)
test-tsan: build
	$(call core_copy,tsan)
	cd build/tsan && $(TSAN_RUN) $(call is_copy,tsan) \
		&& $(TSAN_RUN) -m pytest -p no:cacheprovider $(TSAN_TESTS)

# The study build (docs/search.md, "The study build"): the optimised core
# with the switches of csrc/study.h (-DSOLVER_STUDY), which the shipped
# module and core.wasm do not have, in a copy of the package in
# build/study; bench/summary_sharing.py and bench/last_passes.py import it
# from there. test-study runs tests/study/ against it (elsewhere they are
# skipped).
study: build
	$(call core_copy,study)
test-study: study
	cd build/study && ../../$(PY) $(call is_copy,study) \
		&& STUDY_BUILD=1 ../../$(PY) -m pytest -p no:cacheprovider -n 0 tests/study

# Lint and type check (configured in pyproject.toml): ruff's checks (imports
# sorted among them) and its layout on the whole tree (the package, the
# tests, bench/ and tools/), mypy --strict on the package, its layering
# (lint-imports); no function over 80 lines of C or 50 of Python (funclen);
# the C sources: no warning (cwarn), laid out as .clang-format says
# (cformat). `make format` lays out both languages.
lint: build cwarn funclen cformat jslint
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports --no-cache

# The web game's JavaScript tools, pinned in package-lock.json: ESLint
# (eslint.config.js) and Prettier (.prettierrc.json) for make lint and
# make format, linkedom for the unit tests' documents.
NODE_TOOLS := node_modules/.installed
$(NODE_TOOLS): package.json package-lock.json
	@command -v npm >/dev/null || { echo "no npm: the JavaScript tools need Node.js and npm (apt-get install nodejs npm)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@
JS_SOURCES := solver/web/static/*.js tests/js/*.js tests/*.mjs eslint.config.js
jslint: $(NODE_TOOLS)
	node_modules/.bin/eslint $(JS_SOURCES)
	node_modules/.bin/prettier --check --log-level=warn $(JS_SOURCES) solver/web/static/style.css

# The C sources that cwarn and funclen check: every file under csrc/.
CWARN_SOURCES = $(sort $(shell find csrc -name '*.c'))
# The sources with code of the study build only, compiled again with it.
STUDY_SOURCES = $(sort $(shell grep -l SOLVER_STUDY $(CWARN_SOURCES)))
FUNCLEN_SOURCES = $(sort $(shell find csrc -name '*.[ch]'))
# Each source on its own, with the build's flags (CFLAGS in solver/_build.py)
# and include path, and -Wshadow; compiled at -O2 too, since some warnings
# (-Wmaybe-uninitialized) come only from the optimiser.
CWARN_INCLUDE = $(addprefix -I,$(sort $(patsubst %/,%,$(dir $(shell find csrc -name '*.h'))) csrc))
cwarn: build
	@flags="$$(cd solver && ../$(PY) -c 'from _build import CFLAGS; print(*CFLAGS)')" || exit 1; \
	for f in $(CWARN_SOURCES); do \
		$${CC:-cc} $$flags -Wshadow -Werror $(CWARN_INCLUDE) -fsyntax-only $$f || exit 1; \
		$${CC:-cc} $$flags -Wshadow -Werror $(CWARN_INCLUDE) -O2 -c -o /dev/null $$f || exit 1; \
	done; for f in $(STUDY_SOURCES); do \
		$${CC:-cc} $$flags -DSOLVER_STUDY -Wshadow -Werror $(CWARN_INCLUDE) -O2 -c -o /dev/null $$f || exit 1; \
	done; echo "cwarn: $(words $(CWARN_SOURCES)) sources without a warning, $(words $(STUDY_SOURCES)) also in the study build"

# No C function over 80 lines, and no Python function over 50 (by ast): the
# package, tools/ and bench/; not tests/, whose parametrised tables run long.
PYFUNCLEN_SOURCES = $(sort $(shell find solver tools bench -name '*.py'))
funclen:
	$(PYTHON) tools/funclen.py --max 80 $(FUNCLEN_SOURCES)
	$(PYTHON) tools/funclen.py --max-py 50 $(PYFUNCLEN_SOURCES)

# The C sources' layout (.clang-format): cformat checks it, format makes it.
# Debian's clang-format-19, pinned because another version lays out some
# lines otherwise; installed here when missing, as root (CI is), as browser
# does Chromium. Elsewhere, without it, cformat is skipped (format fails).
CLANG_FORMAT ?= clang-format-19
CFORMAT_SOURCES = $(FUNCLEN_SOURCES)
HAVE_CLANG_FORMAT = command -v $(CLANG_FORMAT) >/dev/null || { [ "$$(id -u)" = 0 ] \
	&& command -v apt-get >/dev/null && apt-get update -qq \
	&& DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-format-19 >/dev/null; }
cformat:
	@if $(HAVE_CLANG_FORMAT); then \
		$(CLANG_FORMAT) --dry-run --Werror $(CFORMAT_SOURCES) \
		&& echo "cformat: $(words $(CFORMAT_SOURCES)) sources laid out as .clang-format says"; \
	else echo "no $(CLANG_FORMAT): the C layout is not checked (apt-get install clang-format-19)"; fi

format: build $(NODE_TOOLS)
	$(PY) -m ruff check --select I --fix -q .
	$(PY) -m ruff format -q .
	@$(HAVE_CLANG_FORMAT) || { echo "no $(CLANG_FORMAT) (apt-get install clang-format-19)"; exit 1; }
	$(CLANG_FORMAT) -i $(CFORMAT_SOURCES)
	node_modules/.bin/prettier --write --log-level=warn $(JS_SOURCES) solver/web/static/style.css

bench: build
	$(PY) -m pytest bench --benchmark-enable --benchmark-only -p no:cacheprovider -n 0

clean:
	rm -rf build *.egg-info solver/_core*.so solver/_core.c solver/_core.o $(VENV) node_modules
