// bench_shim.cc: the C API of bench_shim.h over Google Benchmark, and the
// summary table printed after a run. The only C++ file in bench/.
#include "bench_shim.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

struct wk_bench_state {
    benchmark::State *s;
};

namespace {

// Library thread count per registered name (Google Benchmark's own thread
// count is always 1 here: the kernels run their own OpenMP team).
std::map<std::string, int> &thread_labels() {
    static std::map<std::string, int> labels;
    return labels;
}

// The console reporter, plus a copy of every run for the summary table.
// With a log file, Google Benchmark's own console output (its context
// lines and per-run rows) goes there and only worldkern's table is printed.
class CollectingReporter : public benchmark::ConsoleReporter {
  public:
    explicit CollectingReporter(OutputOptions opts) : benchmark::ConsoleReporter(opts) {}
    std::vector<Run> runs;

    void ReportRuns(const std::vector<Run> &reports) override {
        benchmark::ConsoleReporter::ReportRuns(reports);
        runs.insert(runs.end(), reports.begin(), reports.end());
    }
};

// Names with /<isa>/ replaced by /scalar/.
std::string scalar_counterpart(const std::string &name) {
    size_t a = name.find('/');
    size_t b = a == std::string::npos ? a : name.find('/', a + 1);
    size_t c = b == std::string::npos ? b : name.find('/', b + 1);
    if (c == std::string::npos) return "";
    return name.substr(0, b + 1) + "scalar" + name.substr(c);
}

bool filter_matches(const std::string &filter, const std::string &name) {
    if (filter.empty() || filter == "all" || filter == ".") return true;
    bool negative = filter[0] == '-';
    try {
        bool found = std::regex_search(name, std::regex(negative ? filter.substr(1) : filter, std::regex::extended));
        return negative ? !found : found;
    } catch (const std::regex_error &) {
        return true;  // Google Benchmark reports a bad filter itself
    }
}

std::string regex_escape(const std::string &s) {
    std::string out;
    for (char ch : s) {
        if (std::strchr("\\^$.|?*+()[]{}", ch)) out += '\\';
        out += ch;
    }
    return out;
}

// The scalar runs the speedup column needs but the filter leaves out, as
// one exact-name filter ("" when none).
std::string missing_scalar_filter(const std::string &filter) {
    std::set<std::string> missing;
    for (const auto &entry : thread_labels()) {
        const std::string &name = entry.first;
        if (!filter_matches(filter, name)) continue;
        std::string scalar = scalar_counterpart(name);
        if (!scalar.empty() && scalar != name && thread_labels().count(scalar) && !filter_matches(filter, scalar))
            missing.insert(scalar);
    }
    std::string spec;
    for (const std::string &name : missing) spec += (spec.empty() ? "^(" : "|") + regex_escape(name);
    return spec.empty() ? spec : spec + ")(/|$)";  // runs are named .../real_time
}

struct Row {
    std::string name;  // registered name
    std::string kernel, size, isa;
    int threads = 1;
    bool error = false;
    bool verified = false;
    double items_per_second = 0.0;
    double ns_per_item = 0.0;
};

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t pos = s.find(sep, start);
        parts.push_back(s.substr(start, pos == std::string::npos ? std::string::npos : pos - start));
        if (pos == std::string::npos) break;
        start = pos + 1;
    }
    return parts;
}

double counter_or(const benchmark::BenchmarkReporter::Run &run, const char *name, double fallback) {
    auto it = run.counters.find(name);
    return it == run.counters.end() ? fallback : static_cast<double>(it->second.value);
}

// One row per registered name: the median aggregate when repetitions were
// asked for (else the mean), otherwise the single iteration run.
std::vector<Row> build_rows(const std::vector<benchmark::BenchmarkReporter::Run> &runs) {
    using Run = benchmark::BenchmarkReporter::Run;
    std::vector<std::string> order;
    std::map<std::string, std::pair<int, const Run *>> chosen;  // rank: 0 iteration, 1 mean, 2 median
    for (const Run &run : runs) {
        const std::string &name = run.run_name.function_name;
        int rank = 0;
        if (run.run_type == Run::RT_Aggregate) {
            if (run.aggregate_name == "median") rank = 2;
            else if (run.aggregate_name == "mean") rank = 1;
            else continue;
        }
        auto it = chosen.find(name);
        if (it == chosen.end()) {
            order.push_back(name);
            chosen[name] = {rank, &run};
        } else if (rank > it->second.first || (run.error_occurred && !it->second.second->error_occurred)) {
            it->second = {rank, &run};
        }
    }

    std::vector<Row> rows;
    for (const std::string &name : order) {
        const Run &run = *chosen[name].second;
        Row row;
        row.name = name;
        std::vector<std::string> parts = split(name, '/');
        if (parts.size() >= 4) {
            row.kernel = parts[0] + "/" + parts[1];
            row.isa = parts[2];
            row.size = parts[3];
        } else {
            row.kernel = name;
        }
        auto label = thread_labels().find(name);
        row.threads = label != thread_labels().end() ? label->second : static_cast<int>(run.threads);
        row.error = run.error_occurred;
        row.verified = !run.error_occurred && counter_or(run, "verified", 0.0) == 1.0;
        if (!run.error_occurred) {
            row.items_per_second = counter_or(run, "items_per_second", 0.0);
            if (row.items_per_second > 0.0) row.ns_per_item = 1e9 / row.items_per_second;
        }
        rows.push_back(row);
    }
    return rows;
}

// The console reporter's options from --benchmark_color (or BENCHMARK_COLOR):
// Google Benchmark applies the flag only to the reporter it creates itself,
// not to one passed in. Counters are always shown as columns.
benchmark::ConsoleReporter::OutputOptions console_options(int argc, char **argv) {
    const char *color = std::getenv("BENCHMARK_COLOR");
    for (int a = 1; a < argc; ++a)
        if (std::strncmp(argv[a], "--benchmark_color=", 18) == 0) color = argv[a] + 18;
    bool use_color;
    if (!color || std::strcmp(color, "auto") == 0) {
        const char *term = std::getenv("TERM");
        use_color = isatty(STDOUT_FILENO) && term && std::strcmp(term, "dumb") != 0;
    } else {
        use_color = !(std::strcmp(color, "false") == 0 || std::strcmp(color, "no") == 0 ||
                      std::strcmp(color, "0") == 0 || std::strcmp(color, "off") == 0);
    }
    int opts = benchmark::ConsoleReporter::OO_Tabular;
    if (use_color) opts |= benchmark::ConsoleReporter::OO_Color;
    return static_cast<benchmark::ConsoleReporter::OutputOptions>(opts);
}

bool print_table(const std::vector<Row> &rows, const std::set<std::string> &reference_only) {
    // Scalar items/s per (kernel, size, threads).
    std::map<std::tuple<std::string, std::string, int>, double> scalar;
    for (const Row &r : rows)
        if (r.isa == "scalar" && !r.error) scalar[std::make_tuple(r.kernel, r.size, r.threads)] = r.items_per_second;

    size_t wk = std::strlen("kernel"), ws = std::strlen("size"), wi = std::strlen("isa");
    for (const Row &r : rows) {
        wk = std::max(wk, r.kernel.size());
        ws = std::max(ws, r.size.size());
        wi = std::max(wi, r.isa.size());
    }
    const int k = static_cast<int>(wk), s = static_cast<int>(ws), i = static_cast<int>(wi);
    std::printf("\n%-*s  %-*s  %-*s  %7s  %10s  %11s  %8s  %8s\n", k, "kernel", s, "size", i, "isa",
                "threads", "ns/item", "M items/s", "speedup", "verified");
    std::string rule(static_cast<size_t>(k + s + i) + 2 * 7 + 7 + 10 + 11 + 8 + 8, '-');
    std::printf("%s\n", rule.c_str());
    bool ok = true;
    for (const Row &r : rows) {
        if (reference_only.count(r.name)) continue;  // run only for the speedup column
        if (!r.verified) ok = false;
        if (r.error || r.items_per_second <= 0.0) {
            std::printf("%-*s  %-*s  %-*s  %7d  %10s  %11s  %8s  %8s\n", k, r.kernel.c_str(), s,
                        r.size.c_str(), i, r.isa.c_str(), r.threads, "-", "-", "-",
                        r.verified ? "yes" : "no");
            continue;
        }
        char speedup[32] = "-";
        auto it = scalar.find(std::make_tuple(r.kernel, r.size, r.threads));
        if (it != scalar.end() && it->second > 0.0)
            std::snprintf(speedup, sizeof speedup, "%.2fx", r.items_per_second / it->second);
        std::printf("%-*s  %-*s  %-*s  %7d  %10.3f  %11.2f  %8s  %8s\n", k, r.kernel.c_str(), s,
                    r.size.c_str(), i, r.isa.c_str(), r.threads, r.ns_per_item,
                    r.items_per_second / 1e6, speedup, r.verified ? "yes" : "no");
    }
    std::fflush(stdout);
    return ok;
}

}  // namespace

extern "C" {

void wk_bench_register(const char *name, wk_bench_fn fn, void *ctx, int threads_label) {
    std::string key(name);
    thread_labels()[key] = threads_label;
    benchmark::RegisterBenchmark(key.c_str(), [fn, ctx, threads_label](benchmark::State &state) {
        wk_bench_state st{&state};
        fn(&st, ctx);
        state.counters["threads"] = benchmark::Counter(static_cast<double>(threads_label));
    })->UseRealTime()->Unit(benchmark::kMicrosecond);
}

int wk_bench_keep_running(wk_bench_state *st) { return st->s->KeepRunning() ? 1 : 0; }

int64_t wk_bench_iterations(const wk_bench_state *st) {
    return static_cast<int64_t>(st->s->iterations());
}

void wk_bench_set_items_processed(wk_bench_state *st, int64_t items) { st->s->SetItemsProcessed(items); }

void wk_bench_set_bytes_processed(wk_bench_state *st, int64_t bytes) { st->s->SetBytesProcessed(bytes); }

void wk_bench_set_counter(wk_bench_state *st, const char *name, double value) {
    st->s->counters[name] = benchmark::Counter(value);
}

void wk_bench_skip_with_error(wk_bench_state *st, const char *msg) { st->s->SkipWithError(msg); }

void wk_bench_pause_timing(wk_bench_state *st) { st->s->PauseTiming(); }

void wk_bench_resume_timing(wk_bench_state *st) { st->s->ResumeTiming(); }

void wk_bench_do_not_optimize_fn(const void *p) { benchmark::DoNotOptimize(p); }

void wk_bench_clobber_memory_fn(void) { benchmark::ClobberMemory(); }

int wk_bench_run(int argc, char **argv) {
    std::vector<char *> args(argv, argv + argc);
    bool has_min_time = std::getenv("BENCHMARK_MIN_TIME") != nullptr;
    for (int a = 1; a < argc; ++a)
        if (std::strncmp(argv[a], "--benchmark_min_time", 20) == 0) has_min_time = true;
    static char default_min_time[] = "--benchmark_min_time=0.1";
    if (!has_min_time) args.push_back(default_min_time);
    args.push_back(nullptr);
    int n = static_cast<int>(args.size()) - 1;

    benchmark::Initialize(&n, args.data());
    if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 2;

    // WK_BENCH_LOG=FILE sends Google Benchmark's console output there.
    const char *log_path = std::getenv("WK_BENCH_LOG");
    std::ofstream log;
    CollectingReporter reporter(log_path ? benchmark::ConsoleReporter::OO_Tabular : console_options(argc, argv));
    if (log_path) {
        log.open(log_path);
        if (!log) {
            std::fprintf(stderr, "wk_bench: cannot write %s\n", log_path);
            return 2;
        }
        reporter.SetOutputStream(&log);
        reporter.SetErrorStream(&log);
    }
    // The speedup column compares with scalar in the same run: when the
    // filter leaves a kernel's scalar run out, run it first, table-only.
    std::set<std::string> reference_only;
    std::string filter = benchmark::GetBenchmarkFilter();
    std::string scalar_spec = missing_scalar_filter(filter);
    if (!scalar_spec.empty()) {
        size_t before = reporter.runs.size();
        benchmark::RunSpecifiedBenchmarks(&reporter, scalar_spec);
        for (size_t r = before; r < reporter.runs.size(); r++)
            reference_only.insert(reporter.runs[r].run_name.function_name);
    }
    size_t count = benchmark::RunSpecifiedBenchmarks(&reporter, filter);
    benchmark::Shutdown();
    if (count == 0) {
        std::fprintf(stderr, "wk_bench: no benchmark matched the filter\n");
        return 0;
    }
    if (reporter.runs.empty()) return 0;  // --benchmark_list_tests: nothing ran
    if (log_path)
        std::printf("Google Benchmark's own output: %s. Its line '***WARNING*** Library was built as DEBUG' "
                    "is about Debian's libbenchmark package (built without NDEBUG), not worldkern, which is "
                    "built Release.\n", log_path);
    if (!reference_only.empty())
        std::printf("The filter left out %zu scalar run(s); they ran first, only for the speedup column.\n",
                    reference_only.size());
    return print_table(build_rows(reporter.runs), reference_only) ? 0 : 1;
}

}  // extern "C"
