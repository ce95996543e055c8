#include "vm/plot_value.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace alea::vm {
namespace {

constexpr uint64_t kFields = 4;        // series, title, xlabel, ylabel
constexpr uint64_t kSeriesFields = 5;  // kind, x, y, left_out, label

std::vector<double> FloatsOf(const Object* array) {
  std::vector<double> out;
  if (array == nullptr || array->kind != ObjKind::kArray || array->elements_are_refs) return out;
  out.reserve(array->length);
  for (uint64_t i = 0; i < array->length; ++i) out.push_back(AsFloat(Slots(array)[i]));
  return out;
}

std::string TextOf(Value v) {
  const Object* o = AsObject(v);
  return o != nullptr && o->kind == ObjKind::kStr ? std::string(StrView(o)) : std::string();
}

Object* FloatArray(Heap& heap, const std::vector<double>& values) {
  Object* a = heap.NewArray(values.size(), false);
  if (a == nullptr) return nullptr;
  for (size_t i = 0; i < values.size(); ++i) Slots(a)[i] = FromFloat(values[i]);
  return a;
}

}  // namespace

Plot PlotOf(const Object* value) {
  Plot plot;
  if (value == nullptr || value->kind != ObjKind::kTuple || value->length != kFields) return plot;
  const Object* series = AsObject(Slots(value)[0]);
  if (series != nullptr && series->kind == ObjKind::kArray && series->elements_are_refs) {
    for (uint64_t i = 0; i < series->length; ++i) {
      const Object* s = AsObject(Slots(series)[i]);
      if (s == nullptr || s->kind != ObjKind::kTuple || s->length != kSeriesFields) continue;
      PlotSeries out;
      const int64_t kind = AsInt(Slots(s)[0]);
      if (kind < 0 || kind > static_cast<int64_t>(PlotSeries::Kind::kBars)) continue;
      out.kind = static_cast<PlotSeries::Kind>(kind);
      out.x = FloatsOf(AsObject(Slots(s)[1]));
      out.y = FloatsOf(AsObject(Slots(s)[2]));
      out.left_out = std::max<int64_t>(0, AsInt(Slots(s)[3]));
      out.label = TextOf(Slots(s)[4]);
      plot.series.push_back(std::move(out));
    }
  }
  plot.title = TextOf(Slots(value)[1]);
  plot.xlabel = TextOf(Slots(value)[2]);
  plot.ylabel = TextOf(Slots(value)[3]);
  return plot;
}

Object* NewPlotValue(Heap& heap, const Plot& plot) {
  Object* value = heap.NewTuple(kFields);
  if (value == nullptr) return nullptr;
  // Filled slot by slot: a refusal releases what was made (null slots are
  // skipped).
  for (uint64_t f = 0; f < kFields; ++f) Mask(value)[f] = 1;
  Object* series = heap.NewArray(plot.series.size(), true);
  if (series == nullptr) {
    heap.Release(value);
    return nullptr;
  }
  Slots(value)[0] = FromObject(series);
  const std::string* labels[3] = {&plot.title, &plot.xlabel, &plot.ylabel};
  for (int k = 0; k < 3; ++k) {
    Object* text = heap.NewStr(*labels[k]);
    if (text == nullptr) {
      heap.Release(value);
      return nullptr;
    }
    Slots(value)[1 + k] = FromObject(text);
  }
  for (size_t i = 0; i < plot.series.size(); ++i) {
    const PlotSeries& s = plot.series[i];
    Object* t = heap.NewTuple(kSeriesFields);
    if (t == nullptr) {
      heap.Release(value);
      return nullptr;
    }
    Slots(series)[i] = FromObject(t);
    Slots(t)[0] = FromInt(static_cast<int64_t>(s.kind));
    Slots(t)[3] = FromInt(s.left_out);
    Mask(t)[1] = Mask(t)[2] = Mask(t)[4] = 1;
    Object* x = FloatArray(heap, s.x);
    Object* y = x == nullptr ? nullptr : FloatArray(heap, s.y);
    Object* label = y == nullptr ? nullptr : heap.NewStr(s.label);
    if (x != nullptr) Slots(t)[1] = FromObject(x);
    if (y != nullptr) Slots(t)[2] = FromObject(y);
    if (label == nullptr) {
      heap.Release(value);
      return nullptr;
    }
    Slots(t)[4] = FromObject(label);
  }
  return value;
}

}  // namespace alea::vm
