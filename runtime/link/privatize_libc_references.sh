#!/usr/bin/env bash
# privatize_libc_references.sh ARCHIVE [RUNTIME_ARCHIVE...]: makes a runtime
# archive's calls to libc (libm, libdl, libstdc++'s C names...) bind past the
# user's definitions of the same names.
#
# The runtime is linked statically into the user's executable, so an
# undefined reference in it to `send`, `write`, `open`, `signal`, ... binds at
# static link time to any user global of that name (valid C: `_Bool send;`),
# and the runtime would call the user's variable. This script renames every
# undefined reference to a C function the archive does not define itself to
# __sim_libc_<name>, and links in generated trampolines for those names:
# `__sim_libc_X: jmp *__sim_libc_binding.X(%rip)`, bound lazily on the first call by
# __sim_bind_libc_symbol (libc_binding.cpp says how) to the version of X the
# archive would have been linked against. The trampolines are then made
# local, so each archive has its own and they never clash.
#
# A C name here is one that does not start with `_`: the user may not define
# reserved names, and C++ names are mangled (`_Z...`). What is not renamed:
#   - names a RUNTIME_ARCHIVE defines (the interceptors: a user definition of
#     those is a link error, not a silent rebinding), which the archives
#     linked with libsimrt must keep calling;
#   - dlsym and dlvsym, which do the binding;
#   - the malloc family: a program that defines malloc means to replace it,
#     and the runtime must then allocate and free with the same allocator;
#   - stdin, stdout and stderr: data cannot go through a trampoline, and a
#     user definition of them already rebinds libc's own uses natively (libc
#     refers to them through its GOT). Any other data reference fails the
#     build: read it through a reserved alias (__environ) or dlsym.
#
# Cost: a renamed call jumps through the binding as a call from the executable
# to libc jumps through the PLT, so hot calls (memcpy, ...) cost what they did.
#
# Tools: LD, OBJCOPY, AR, NM, READELF, and CXX (a C++ compiler driver, to
# assemble the trampolines and to link a probe library that says which names
# are functions or data, and at which symbol version).
set -euo pipefail
archive="$1"
shift
ld="${LD:-ld}"
objcopy="${OBJCOPY:-objcopy}"
ar="${AR:-ar}"
nm="${NM:-nm}"
readelf="${READELF:-readelf}"
cxx="${CXX:-c++}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

die() {
  printf 'privatize_libc_references.sh: %s: %s\n' "$archive" "$1" >&2
  exit 1
}

readonly kept_names="dlsym dlvsym malloc free calloc realloc reallocarray posix_memalign aligned_alloc memalign valloc pvalloc malloc_usable_size"
readonly kept_data="stdin stdout stderr"

"$ld" -r --whole-archive "$archive" -o "$work/combined.o"

# Names the runtime archives define: not libc's.
: > "$work/defined.txt"
for runtime_archive in "$@"; do
  "$nm" --defined-only --extern-only "$runtime_archive" | awk 'NF == 3 {print $3}' >> "$work/defined.txt"
done
sort -u -o "$work/defined.txt" "$work/defined.txt"

# Candidates: undefined C names.
"$nm" --undefined-only "$work/combined.o" | awk '{print $NF " " $(NF-1)}' | grep -v '^_' | sort -u > "$work/undefined.txt" || true
: > "$work/candidates.txt"
while read -r name kind; do
  [[ -z "$name" ]] && continue
  [[ " $kept_names " == *" $name "* ]] && continue
  grep -qxF -- "$name" "$work/defined.txt" && continue
  # A weak reference tests whether the symbol exists; a trampoline always would.
  [[ "$kind" == w ]] && die "weak reference to '$name': a trampoline would make it always present; call it through dlsym instead"
  echo "$name" >> "$work/candidates.txt"
done < "$work/undefined.txt"

# What each candidate is, and its version, as the linker sees it: a probe
# library linked from the archive against the default libraries records both
# in its dynamic symbol table.
"$cxx" -shared -o "$work/probe.so" "$work/combined.o" -ldl -lpthread
"$readelf" --dyn-syms --wide "$work/probe.so" |
  awk '$7 == "UND" && NF >= 8 {split($8, parts, "@"); print parts[1], $4, (parts[2] == "" ? "-" : parts[2])}' |
  sort -u > "$work/probe.txt"

: > "$work/renames.txt"
: > "$work/bindings.txt"
while read -r name; do
  read -r _ type version < <(awk -v n="$name" '$1 == n {print; exit}' "$work/probe.txt") || true
  case "${type:-}" in
    FUNC|IFUNC)
      echo "$name __sim_libc_$name" >> "$work/renames.txt"
      echo "$name $version" >> "$work/bindings.txt"
      ;;
    OBJECT|TLS|COMMON)
      [[ " $kept_data " == *" $name "* ]] ||
        die "the runtime reads the variable '$name', which a user global of that name would replace; read it through a reserved alias (e.g. __environ) or dlsym(RTLD_NEXT, \"$name\")"
      ;;
    *)
      die "'$name' is referenced but defined neither by the runtime nor by the libraries a program links (is a runtime archive missing from the command line?)"
      ;;
  esac
  type=""
  version=""
done < "$work/candidates.txt"

[[ -s "$work/renames.txt" ]] || exit 0

# The trampolines. Each binding is {target, name, version} (SimLibcBinding),
# all of them in one section, sim_libc_bindings, which a fork server walks
# to bind them before it forks (libc_binding.h). Its target starts at a
# stub (__sim_libc_stub.X) that loads the binding's address into r11 for
# the common path (__sim_libc_bind.common), which saves every register that
# can carry an argument (rax carries the vector count of a variadic call,
# r10 a static chain), binds, restores them and jumps: the callee sees the
# call as its caller made it, so variadic functions and arguments on the
# stack work. The `.` in the private names keeps them apart from every C
# name.
{
  cat <<EOF
# Generated by runtime/link/privatize_libc_references.sh for $(basename "$archive"): the
# runtime's private entry points to libc, bound on first call past the user's
# definitions of the same names (see that script and libc_binding.cpp). Only
# the trampolines are global here, to be made local once linked to the archive.
	.text
	.p2align 4
	.type	__sim_libc_bind.common, @function
__sim_libc_bind.common:
	.cfi_startproc
	pushq	%rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	subq	\$192, %rsp
	andq	\$-16, %rsp
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	movq	%r10, 56(%rsp)
	movaps	%xmm0, 64(%rsp)
	movaps	%xmm1, 80(%rsp)
	movaps	%xmm2, 96(%rsp)
	movaps	%xmm3, 112(%rsp)
	movaps	%xmm4, 128(%rsp)
	movaps	%xmm5, 144(%rsp)
	movaps	%xmm6, 160(%rsp)
	movaps	%xmm7, 176(%rsp)
	movq	%r11, %rdi
	call	__sim_bind_libc_symbol
	movq	%rax, %r11
	movq	0(%rsp), %rdi
	movq	8(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rcx
	movq	32(%rsp), %r8
	movq	40(%rsp), %r9
	movq	48(%rsp), %rax
	movq	56(%rsp), %r10
	movaps	64(%rsp), %xmm0
	movaps	80(%rsp), %xmm1
	movaps	96(%rsp), %xmm2
	movaps	112(%rsp), %xmm3
	movaps	128(%rsp), %xmm4
	movaps	144(%rsp), %xmm5
	movaps	160(%rsp), %xmm6
	movaps	176(%rsp), %xmm7
	leave
	.cfi_def_cfa %rsp, 8
	jmp	*%r11
	.cfi_endproc
	.size	__sim_libc_bind.common, .-__sim_libc_bind.common
EOF
  index=0
  while read -r name version; do
    cat <<EOF

	.text
	.globl	__sim_libc_$name
	.hidden	__sim_libc_$name
	.type	__sim_libc_$name, @function
	.p2align 4
__sim_libc_$name:
	.cfi_startproc
	jmp	*__sim_libc_binding.$name(%rip)
	.cfi_endproc
	.size	__sim_libc_$name, .-__sim_libc_$name
	.type	__sim_libc_stub.$name, @function
__sim_libc_stub.$name:
	.cfi_startproc
	leaq	__sim_libc_binding.$name(%rip), %r11
	jmp	__sim_libc_bind.common
	.cfi_endproc
	.size	__sim_libc_stub.$name, .-__sim_libc_stub.$name
	.section	sim_libc_bindings,"aw",@progbits
	.p2align 3
	.type	__sim_libc_binding.$name, @object
__sim_libc_binding.$name:
	.quad	__sim_libc_stub.$name
	.quad	.Lsim_name_$index
EOF
    if [[ "$version" == - ]]; then
      printf '\t.quad\t0\n'
    else
      printf '\t.quad\t.Lsim_version_%s\n' "$index"
    fi
    printf '\t.size\t__sim_libc_binding.%s, 24\n' "$name"
    printf '\t.section\t.rodata.str1.1,"aMS",@progbits,1\n.Lsim_name_%s:\n\t.asciz\t"%s"\n' "$index" "$name"
    [[ "$version" == - ]] || printf '.Lsim_version_%s:\n\t.asciz\t"%s"\n' "$index" "$version"
    index=$((index + 1))
  done < "$work/bindings.txt"
  printf '\n\t.section\t.note.GNU-stack,"",@progbits\n'
} > "$work/trampolines.s"

"$cxx" -c -x assembler "$work/trampolines.s" -o "$work/trampolines.o"
"$objcopy" --redefine-syms="$work/renames.txt" "$work/combined.o"
"$ld" -r "$work/combined.o" "$work/trampolines.o" -o "$work/private.o"
awk '{print $2}' "$work/renames.txt" > "$work/trampolines.txt"
"$objcopy" --localize-symbols="$work/trampolines.txt" "$work/private.o"
rm -f "$archive"
"$ar" rcs "$archive" "$work/private.o"
