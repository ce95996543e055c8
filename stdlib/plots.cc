// `hist`, `plot`, `scatter` and `overlay`: Plot values (vm/plot_value.h)
// from tensors or arrays of Floats; drawing them is vm/plot.h's (`print`,
// `save_plot` in files.cc).
#include <cstdint>
#include <string>
#include <vector>

#include "stdlib/natives.h"
#include "vm/plot.h"
#include "vm/plot_value.h"
#include "vm/tensor.h"

namespace alea::stdlib {
namespace {

using vm::AsInt;
using vm::AsObject;
using vm::Object;
using vm::Value;

// The values of a 1-d tensor (any dtype but bool, as doubles) or of a
// [Float]; the builtins' signatures allow nothing else.
absl::StatusOr<std::vector<double>> ValuesOf(vm::NativeContext& ctx, Value v, const char* name) {
  const Object* o = AsObject(v);
  std::vector<double> out;
  if (o->kind == vm::ObjKind::kArray) {
    out.reserve(o->length);
    for (uint64_t i = 0; i < o->length; ++i) out.push_back(vm::AsFloat(vm::Slots(o)[i]));
    return out;
  }
  if (o->kind != vm::ObjKind::kTensor) {
    return ctx.Fail(vm::RuntimeErrorId::kBadCall, "a plot of other than a tensor or a [Float]");
  }
  if (vm::RankOf(o) != 1) {
    return ctx.Fail(vm::RuntimeErrorId::kPlotRank, name, vm::ShapeString(vm::ShapeOf(o)));
  }
  const int64_t n = vm::SizeOf(o);
  out.reserve(static_cast<size_t>(n));
  switch (vm::DTypeOf(o)) {
    case vm::DType::kF32:
      for (int64_t i = 0; i < n; ++i) out.push_back(vm::ElementsOf<float>(o)[i]);
      break;
    case vm::DType::kI32:
      for (int64_t i = 0; i < n; ++i) out.push_back(vm::ElementsOf<int32_t>(o)[i]);
      break;
    case vm::DType::kU32:
      for (int64_t i = 0; i < n; ++i) out.push_back(vm::ElementsOf<uint32_t>(o)[i]);
      break;
    default:
      return ctx.Fail(vm::RuntimeErrorId::kBadCall, "a plot of a bool tensor");
  }
  return out;
}

// The labels: args[at..at+3] are title, xlabel, ylabel and the label of
// the plot's one series.
void Label(vm::Plot* plot, const Value* args, int at) {
  plot->title = std::string(vm::StrView(AsObject(args[at])));
  plot->xlabel = std::string(vm::StrView(AsObject(args[at + 1])));
  plot->ylabel = std::string(vm::StrView(AsObject(args[at + 2])));
  plot->series.back().label = std::string(vm::StrView(AsObject(args[at + 3])));
}

absl::StatusOr<Value> Finish(vm::NativeContext& ctx, const vm::Plot& plot) {
  Object* value = vm::NewPlotValue(ctx.heap(), plot);
  if (value == nullptr) return ctx.OutOfMemory();
  return vm::FromObject(value);
}

// xs and ys of one length (the point count), as `plot(xs, ys)` and
// `scatter` take them.
absl::StatusOr<Value> Points(vm::NativeContext& ctx, const Value* args, vm::PlotSeries::Kind kind,
                             const char* name) {
  absl::StatusOr<std::vector<double>> xs = ValuesOf(ctx, args[0], name);
  if (!xs.ok()) return xs.status();
  absl::StatusOr<std::vector<double>> ys = ValuesOf(ctx, args[1], name);
  if (!ys.ok()) return ys.status();
  if (xs->size() != ys->size()) {
    return ctx.Fail(vm::RuntimeErrorId::kPlotLengths, name, xs->size(), ys->size());
  }
  vm::Plot plot;
  plot.series.push_back({kind, std::move(*xs), std::move(*ys)});
  Label(&plot, args, 2);
  return Finish(ctx, plot);
}

}  // namespace

// hist(x, bins, title, xlabel, ylabel, label)
absl::StatusOr<Value> Native_plot_hist(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<std::vector<double>> values = ValuesOf(ctx, args[0], "hist");
  if (!values.ok()) return values.status();
  const int64_t bins = AsInt(args[1]);
  if (bins < 1 || bins > 10000) return ctx.Fail(vm::RuntimeErrorId::kPlotBins, bins);
  vm::Plot plot;
  plot.series.push_back(vm::Histogram(*values, static_cast<int>(bins)));
  Label(&plot, args, 2);
  return Finish(ctx, plot);
}

// plot(ys, title, xlabel, ylabel, label): ys against 0, 1, 2...
absl::StatusOr<Value> Native_plot_y(vm::NativeContext& ctx, const Value* args) {
  absl::StatusOr<std::vector<double>> ys = ValuesOf(ctx, args[0], "plot");
  if (!ys.ok()) return ys.status();
  vm::PlotSeries series;
  series.kind = vm::PlotSeries::Kind::kLine;
  for (size_t i = 0; i < ys->size(); ++i) series.x.push_back(static_cast<double>(i));
  series.y = std::move(*ys);
  vm::Plot plot;
  plot.series.push_back(std::move(series));
  Label(&plot, args, 1);
  return Finish(ctx, plot);
}

absl::StatusOr<Value> Native_plot_xy(vm::NativeContext& ctx, const Value* args) {
  return Points(ctx, args, vm::PlotSeries::Kind::kLine, "plot");
}

absl::StatusOr<Value> Native_plot_scatter(vm::NativeContext& ctx, const Value* args) {
  return Points(ctx, args, vm::PlotSeries::Kind::kScatter, "scatter");
}

// overlay(p, q): p's series then q's, p's labels (q's where p has none).
absl::StatusOr<Value> Native_plot_overlay(vm::NativeContext& ctx, const Value* args) {
  vm::Plot p = vm::PlotOf(AsObject(args[0]));
  vm::Plot q = vm::PlotOf(AsObject(args[1]));
  for (vm::PlotSeries& s : q.series) p.series.push_back(std::move(s));
  if (p.title.empty()) p.title = q.title;
  if (p.xlabel.empty()) p.xlabel = q.xlabel;
  if (p.ylabel.empty()) p.ylabel = q.ylabel;
  return Finish(ctx, p);
}

}  // namespace alea::stdlib
