"""C identifiers derived from tensor names: never a keyword, a common macro or a repeat.

The members of `struct tinyaot_<name>_inputs/outputs` are named after the tensors
(lower case [a-z0-9_], see ir.c_identifier, so no leading or double underscore).
A user's C or C++ compiler must accept them whatever the model calls its
tensors, so names that a C99/C11/C23 or C++ compiler, or a standard header,
gives a meaning of its own get a suffix.
"""

C_KEYWORDS = {
    # C99
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while",
    # C11/C23 (lower-case spellings and their <std*.h> macros)
    "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert", "thread_local",
    "true", "typeof", "typeof_unqual", "noreturn", "complex", "imaginary",
}
CXX_KEYWORDS = {
    "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t", "class",
    "compl", "concept", "consteval", "constinit", "const_cast", "co_await", "co_return", "co_yield",
    "decltype", "delete", "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "operator", "or", "or_eq", "private", "protected", "public",
    "reflexpr", "reinterpret_cast", "requires", "static_cast", "template", "this", "throw", "try",
    "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
}
# Lower-case names that standard headers or compilers (gnu modes) define as macros or types
# this header's users are likely to have in scope.
MACROS_AND_TYPES = {
    "errno", "stdin", "stdout", "stderr", "assert", "offsetof", "unix", "linux", "i386", "arm",
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "wchar_t", "max_align_t", "null",
}
RESERVED = C_KEYWORDS | CXX_KEYWORDS | MACROS_AND_TYPES


def member_names(items):
    """Unique, safe C member names for [(key, fragment)] in order: {key: name}.

    `fragment` is a tensor's c_name; a reserved word gets `_t`, a repeat gets
    `_2`, `_3`... (checked against every name already handed out).
    """
    names, used = {}, set()
    for key, fragment in items:
        base = f"{fragment}_t" if fragment in RESERVED else fragment
        name, n = base, 1
        while name in used:
            n += 1
            name = f"{base}_{n}"
        used.add(name)
        names[key] = name
    return names
