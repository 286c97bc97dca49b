# The reader's modules as SwiftPM lays them out, instrumented: SystemIO (with its C part) and
# PDFReader (pure Swift but for zlib). Sourced by the fuzz scripts; $out and $flags are theirs.
mkdir -p "$out/csystem"
printf 'module CSystem {\n  header "%s/Sources/CSystem/include/CSystem.h"\n  export *\n}\n' "$PWD" >"$out/csystem/module.modulemap"
clang -c -O1 -fsanitize=fuzzer-no-link,address -I Sources/CSystem/include Sources/CSystem/system.c -o "$out/system.o"
swiftc "${flags[@]}" -I "$out/csystem" -emit-library -static -emit-module -module-name SystemIO \
  Sources/SystemIO/*.swift -o "$out/libSystemIO.a" -emit-module-path "$out/SystemIO.swiftmodule"
swiftc "${flags[@]}" -I Sources/CZlib -I "$out/csystem" -emit-library -static -emit-module -module-name PDFReader \
  Sources/PDFReader/*.swift -o "$out/libPDFReader.a" -emit-module-path "$out/PDFReader.swiftmodule"
