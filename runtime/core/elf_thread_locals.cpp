// elf_thread_locals.cpp: see elf_thread_locals.h.
#include "core/elf_thread_locals.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <utility>

namespace sim::internal {
namespace {

// A read-only mapping of a whole file, unmapped when it goes out of scope.
class MappedFile {
 public:
  explicit MappedFile(const char* path) {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat status;
    if (fstat(fd, &status) == 0 && status.st_size > 0) {
      void* data = mmap(nullptr, static_cast<std::size_t>(status.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (data != MAP_FAILED) {
        data_ = static_cast<const char*>(data);
        size_ = static_cast<std::size_t>(status.st_size);
      }
    }
    close(fd);
  }
  ~MappedFile() {
    if (data_ != nullptr) munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  // The object at [offset, offset + count * sizeof(T)), or null when it is
  // not wholly inside the file.
  template <typename T>
  const T* At(std::size_t offset, std::size_t count = 1) const {
    if (data_ == nullptr || offset > size_ || count > (size_ - offset) / sizeof(T)) return nullptr;
    return reinterpret_cast<const T*>(data_ + offset);
  }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

const Elf64_Shdr* FindSection(const MappedFile& file, const Elf64_Ehdr& header, Elf64_Word type) {
  const auto* sections = file.At<Elf64_Shdr>(header.e_shoff, header.e_shnum);
  if (sections == nullptr) return nullptr;
  for (int i = 0; i < header.e_shnum; ++i) {
    if (sections[i].sh_type == type) return &sections[i];
  }
  return nullptr;
}

}  // namespace

std::optional<std::vector<ElfThreadLocal>> ReadElfThreadLocals(const char* path) {
  const MappedFile file(path);
  const auto* header = file.At<Elf64_Ehdr>(0);
  if (header == nullptr || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
      header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_shentsize != sizeof(Elf64_Shdr)) {
    return std::nullopt;
  }
  const Elf64_Shdr* symbols = FindSection(file, *header, SHT_SYMTAB);
  if (symbols == nullptr || symbols->sh_entsize != sizeof(Elf64_Sym)) return std::nullopt;
  const auto* sections = file.At<Elf64_Shdr>(header->e_shoff, header->e_shnum);
  if (symbols->sh_link >= header->e_shnum) return std::nullopt;
  const Elf64_Shdr& names = sections[symbols->sh_link];
  const std::size_t count = symbols->sh_size / sizeof(Elf64_Sym);
  const auto* table = file.At<Elf64_Sym>(symbols->sh_offset, count);
  const char* strings = file.At<char>(names.sh_offset, names.sh_size);
  if (table == nullptr || strings == nullptr) return std::nullopt;

  std::vector<ElfThreadLocal> thread_locals;
  for (std::size_t i = 0; i < count; ++i) {
    const Elf64_Sym& symbol = table[i];
    if (ELF64_ST_TYPE(symbol.st_info) != STT_TLS || symbol.st_shndx == SHN_UNDEF || symbol.st_size == 0) continue;
    std::string name;
    if (symbol.st_name < names.sh_size) {
      name.assign(strings + symbol.st_name, strnlen(strings + symbol.st_name, names.sh_size - symbol.st_name));
    }
    thread_locals.push_back({symbol.st_value, symbol.st_size, std::move(name)});
  }
  return thread_locals;
}

}  // namespace sim::internal
