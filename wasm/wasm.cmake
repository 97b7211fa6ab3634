# The Emscripten build of the bindings: build/wasm/dpcalc-module.mjs (the glue), dpcalc-module.wasm.orig
# (the module, which scripts/build.mjs copies to dist/ as dpcalc.wasm) and dpcalc-module.wasm (the same
# module instrumented by wasm-split, SPLIT_MODULE below). scripts/split-wasm.mjs runs the page's first
# requests through the instrumented one and splits the module into what they run (dist/dpcalc-first.wasm)
# and the rest (dist/dpcalc-rest.wasm), so that the page's first answer waits for the first part only.
set(DPCALC_WASM_RELEASE_FLAGS -O2 CACHE STRING "optimisation flags for the wasm link (see README: -O2 vs -Oz -flto)")

# WebAssembly SIMD (f64x2): the FFT's butterflies and complex products (dpcalc/fft/complex_vector.hpp)
# use two-lane vectors. Every current browser runs it (Chrome 91, Firefox 89, Safari 16.4, Node 16.4).
set(DPCALC_WASM_SIMD_FLAGS -msimd128)

# The core uses no RTTI (no dynamic_cast or typeid); without it the module carries no type names for
# the std::function lambdas (22 KB of mangled names) or their type_info. The bindings keep RTTI: Embind
# registers its types through it.
target_compile_options(dpcalc_core PRIVATE ${DPCALC_WASM_RELEASE_FLAGS} ${DPCALC_WASM_SIMD_FLAGS} -fno-rtti)

add_executable(dpcalc_wasm ${CMAKE_CURRENT_SOURCE_DIR}/wasm/bindings.cpp)
set_target_properties(dpcalc_wasm PROPERTIES OUTPUT_NAME dpcalc-module SUFFIX ".mjs")
target_link_libraries(dpcalc_wasm PRIVATE dpcalc_core)
target_compile_options(dpcalc_wasm PRIVATE ${DPCALC_WARNINGS} -fno-exceptions ${DPCALC_WASM_RELEASE_FLAGS}
  ${DPCALC_WASM_SIMD_FLAGS})
target_link_options(dpcalc_wasm PRIVATE
  --bind
  -fno-exceptions
  ${DPCALC_WASM_RELEASE_FLAGS}
  ${DPCALC_WASM_SIMD_FLAGS}
  -sDYNAMIC_EXECUTION=0
  -sMODULARIZE=1
  -sEXPORT_ES6=1
  -sEXPORT_NAME=createDpcalcModule
  -sENVIRONMENT=web,worker
  -sALLOW_MEMORY_GROWTH=1
  -sMAXIMUM_MEMORY=1GB
  -sFILESYSTEM=0
  # Also writes the instrumented module, and gives the glue the placeholders of a split module's
  # missing functions (web/dpcalc.js links the rest, or answers that it is not loaded).
  -sSPLIT_MODULE=1
  -Wno-experimental
  # Binaryen inlines every function that has one caller, however large: at -O2 that merged every API
  # op into one 240 KB dpcalc::api::compute, which V8 compiles lazily, on the first request (about
  # 200 ms of a cold load). Capping it keeps each op its own function; a call per op costs nothing.
  -sBINARYEN_EXTRA_PASSES=--one-caller-inline-max-function-size=200)

# The PLD engine's benchmark (tests/bench/pld_bench.cpp) as WebAssembly for Node: `npm run bench`
# builds and runs it, to time the engine in wasm where the JS API cannot reach it yet. Not part of
# the page (built only on request).
add_executable(dpcalc_bench_wasm EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/tests/bench/pld_bench.cpp)
set_target_properties(dpcalc_bench_wasm PROPERTIES OUTPUT_NAME dpcalc-bench SUFFIX ".mjs")
target_link_libraries(dpcalc_bench_wasm PRIVATE dpcalc_core)
target_compile_options(dpcalc_bench_wasm PRIVATE ${DPCALC_WARNINGS} -fno-exceptions ${DPCALC_WASM_RELEASE_FLAGS}
  ${DPCALC_WASM_SIMD_FLAGS})
target_link_options(dpcalc_bench_wasm PRIVATE -fno-exceptions ${DPCALC_WASM_RELEASE_FLAGS} ${DPCALC_WASM_SIMD_FLAGS}
  -sENVIRONMENT=node -sMODULARIZE=1 -sEXPORT_ES6=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=1GB)

# The api layer's op files (reading a request, calling the domains, writing the result) run once per
# request: LLVM's -O2 inlining (threshold 225) copied their many small helpers into every op, which
# made them a third of the module. With a threshold of 25 the module is 12 KB (brotli) smaller and
# every benchmark request as fast (tests/bench/compare_builds.mjs: ratios 0.97-1.03, all answers
# identical). The files every request passes through (the schema check, the field readers, Value and
# the shared readers) keep -O2's inlining: on them the lower threshold cost 4-5% per closed form.
file(GLOB DPCALC_WASM_API_OP_SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/core/src/api/*.cpp)
list(FILTER DPCALC_WASM_API_OP_SOURCES EXCLUDE REGEX
  "/(schema|fields|value|compute|guarantee_io|mechanism_io|items_io|citation)\\.cpp$")
set_source_files_properties(${DPCALC_WASM_API_OP_SOURCES} PROPERTIES COMPILE_OPTIONS "-mllvm;-inline-threshold=25")

# The domains whose code runs a few times per request, around the numeric engine rather than in its
# loops (closed forms, databases, calibration and its search, trade-offs, the mechanism catalog, the
# group-wise planner), compile with an inline threshold of 75 instead of -O2's 225: the module is
# 3.6 KB (brotli) smaller, every benchmark request as fast (compare_builds: closed forms 0.97-1.02,
# numeric requests within the machine's noise; the trade-off of a numeric answer, timed alternately
# over 61 rounds, 0.95-1.02) and every answer identical.
file(GLOB DPCALC_WASM_AROUND_ENGINE_SOURCES
  ${CMAKE_CURRENT_SOURCE_DIR}/core/src/closed_form/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/core/src/databases/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/core/src/calibration/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/core/src/search/*.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/core/src/tradeoff/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/core/src/mechanisms/catalog.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/core/src/groupwise/planner.cpp)
set_source_files_properties(${DPCALC_WASM_AROUND_ENGINE_SOURCES} PROPERTIES COMPILE_OPTIONS "-mllvm;-inline-threshold=75")
