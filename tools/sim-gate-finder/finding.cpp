// finding.cpp: the names of the shapes (finding.h).
#include "finding.h"

namespace gate_finder {

const char* ShapeId(Shape shape) {
  switch (shape) {
    case Shape::kLazyInit:
      return "lazy-init";
    case Shape::kContainer:
      return "container";
    case Shape::kAtomicCheck:
      return "atomic-check";
    case Shape::kSplitSection:
      return "split-section";
    case Shape::kFileTimeOfCheck:
      return "file-toctou";
  }
  return "";
}

const char* ShapeWords(Shape shape) {
  switch (shape) {
    case Shape::kLazyInit:
      return "lazy initialisation";
    case Shape::kContainer:
      return "check-then-act on a container";
    case Shape::kAtomicCheck:
      return "check-then-act on an atomic";
    case Shape::kSplitSection:
      return "read-modify-write split over two sections";
    case Shape::kFileTimeOfCheck:
      return "time of check to time of use on a file";
  }
  return "";
}

}  // namespace gate_finder
