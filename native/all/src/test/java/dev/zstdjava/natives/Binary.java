package dev.zstdjava.natives;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the tests need to know about a shared library, read from its bytes: ELF ({@code .so}), Mach-O
 * ({@code .dylib}) or PE ({@code .dll}). Only the parts the checks use are parsed: format, machine, the exported
 * function names, the libraries it needs, and the hardening and signature facts below.
 *
 * @param format      {@code ELF64}, {@code Mach-O 64} or {@code PE32+}
 * @param machine     {@code x86_64}, {@code aarch64}, {@code ppc64le}, {@code s390x} or {@code riscv64} (or the raw
 *                    machine number otherwise)
 * @param exports     exported symbol names without Mach-O's leading underscore
 * @param needed      libraries the file links against (ELF DT_NEEDED, PE imports, Mach-O LC_LOAD_DYLIB)
 * @param glibcNeeded the GLIBC_x.y symbol versions it requires (ELF only)
 * @param hardening   hardening facts found, e.g. {@code relro}, {@code bind-now}, {@code nx}, {@code aslr}
 * @param stripped    no static symbol table (ELF {@code .symtab}, PE COFF symbols); for Mach-O only local symbols
 * @param signature   Mach-O: {@code valid ad-hoc}, {@code none}, or why it is invalid; null elsewhere
 */
record Binary(String format, String machine, Set<String> exports, List<String> needed, Set<String> glibcNeeded,
              Set<String> hardening, boolean stripped, String signature) {

    static Binary read(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
        if (b.limit() >= 4 && b.getInt(0) == 0x7f454c46) {
            // EI_DATA: 1 little-endian, 2 big-endian (s390x)
            return elf(b.order(b.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN));
        }
        if (b.limit() >= 4 && b.order(ByteOrder.LITTLE_ENDIAN).getInt(0) == 0xfeedfacf) {
            return macho(b);
        }
        if (b.limit() >= 64 && b.get(0) == 'M' && b.get(1) == 'Z') {
            return pe(b.order(ByteOrder.LITTLE_ENDIAN));
        }
        throw new IOException(file + ": neither 64-bit ELF, 64-bit little-endian Mach-O nor PE");
    }

    // ------------------------------------------------------------------------------------------------ ELF
    private static Binary elf(ByteBuffer b) throws IOException {
        if (b.get(4) != 2 || b.get(5) != 1 && b.get(5) != 2) {
            throw new IOException("only 64-bit ELF is expected");
        }
        int machine = Short.toUnsignedInt(b.getShort(18));
        long shoff = b.getLong(0x28);
        int shentsize = Short.toUnsignedInt(b.getShort(0x3a));
        int shnum = Short.toUnsignedInt(b.getShort(0x3c));
        long phoff = b.getLong(0x20);
        int phentsize = Short.toUnsignedInt(b.getShort(0x36));
        int phnum = Short.toUnsignedInt(b.getShort(0x38));

        Set<String> hardening = new TreeSet<>();
        boolean execStack = true;
        for (int i = 0; i < phnum; i++) {
            int ph = (int) (phoff + (long) i * phentsize);
            int type = b.getInt(ph);
            if (type == 0x6474e552) {
                hardening.add("relro");
            } else if (type == 0x6474e551) { // PT_GNU_STACK
                execStack = (b.getInt(ph + 4) & 1) != 0;
            }
        }
        if (!execStack) {
            hardening.add("nx");
        }

        Set<String> exports = new TreeSet<>();
        List<String> needed = new ArrayList<>();
        Set<String> glibc = new TreeSet<>();
        boolean symtab = false;
        for (int i = 0; i < shnum; i++) {
            int sh = (int) (shoff + (long) i * shentsize);
            int type = b.getInt(sh + 4);
            long off = b.getLong(sh + 0x18);
            long size = b.getLong(sh + 0x20);
            int link = b.getInt(sh + 0x28);
            long entsize = b.getLong(sh + 0x38);
            int strSh = (int) (shoff + (long) link * shentsize);
            long strOff = b.getLong(strSh + 0x18);
            switch (type) {
                case 2 -> symtab = true; // SHT_SYMTAB
                case 11 -> { // SHT_DYNSYM
                    for (long s = off + entsize; s < off + size; s += entsize) {
                        int name = b.getInt((int) s);
                        int info = Byte.toUnsignedInt(b.get((int) s + 4));
                        int other = b.get((int) s + 5) & 3;
                        int shndx = Short.toUnsignedInt(b.getShort((int) s + 6));
                        int bind = info >>> 4;
                        if (shndx != 0 && (bind == 1 || bind == 2) && other == 0) {
                            exports.add(cString(b, strOff + name));
                        }
                    }
                }
                case 6 -> { // SHT_DYNAMIC
                    for (long d = off; d < off + size; d += 16) {
                        long tag = b.getLong((int) d);
                        long val = b.getLong((int) d + 8);
                        if (tag == 1) {
                            needed.add(cString(b, strOff + val));
                        } else if (tag == 30 && (val & 8) != 0 || tag == 0x6ffffffbL && (val & 1) != 0) {
                            hardening.add("bind-now"); // DF_BIND_NOW or DF_1_NOW
                        }
                    }
                }
                case 0x6ffffffe -> { // SHT_GNU_verneed
                    long vn = off;
                    while (true) {
                        int cnt = Short.toUnsignedInt(b.getShort((int) vn + 2));
                        long aux = vn + b.getInt((int) vn + 8);
                        for (int a = 0; a < cnt; a++) {
                            String v = cString(b, strOff + Integer.toUnsignedLong(b.getInt((int) aux + 8)));
                            if (v.startsWith("GLIBC_")) {
                                glibc.add(v);
                            }
                            aux += b.getInt((int) aux + 12);
                        }
                        int next = b.getInt((int) vn + 12);
                        if (next == 0) {
                            break;
                        }
                        vn += next;
                    }
                }
                default -> { }
            }
        }
        String arch = switch (machine) {
            case 62 -> "x86_64";
            case 183 -> "aarch64";
            case 21 -> b.order() == ByteOrder.LITTLE_ENDIAN ? "ppc64le" : "ppc64";
            case 22 -> "s390x";
            case 243 -> "riscv64";
            default -> "elf-" + machine;
        };
        return new Binary("ELF64", arch,
                exports, needed, glibc, hardening, !symtab, null);
    }

    // ------------------------------------------------------------------------------------------------ Mach-O
    private static Binary macho(ByteBuffer b) throws IOException {
        int cpu = b.getInt(4);
        int fileType = b.getInt(12);
        if (fileType != 6) {
            throw new IOException("Mach-O file type " + fileType + " is not a dylib (6)");
        }
        int ncmds = b.getInt(16);
        Set<String> exports = new TreeSet<>();
        List<String> needed = new ArrayList<>();
        Set<String> hardening = new TreeSet<>();
        String signature = "none";
        int cmd = 32;
        boolean localSymbols = false;
        for (int i = 0; i < ncmds; i++) {
            int c = b.getInt(cmd);
            int size = b.getInt(cmd + 4);
            switch (c) {
                case 0x80000022 -> exportTrie(b, b.getInt(cmd + 40), b.getInt(cmd + 44), exports); // LC_DYLD_INFO_ONLY
                case 0x80000033 -> exportTrie(b, b.getInt(cmd + 8), b.getInt(cmd + 12), exports); // LC_DYLD_EXPORTS_TRIE
                case 0xc, 0x80000018 -> needed.add(cString(b, cmd + b.getInt(cmd + 8))); // LC_LOAD_DYLIB, WEAK
                case 0xb -> localSymbols = b.getInt(cmd + 12) > 0; // LC_DYSYMTAB nlocalsym
                case 0x1d -> signature = codeSignature(b, b.getInt(cmd + 8)); // LC_CODE_SIGNATURE
                default -> { }
            }
            cmd += size;
        }
        String machine = cpu == 0x01000007 ? "x86_64" : cpu == 0x0100000c ? "aarch64" : "macho-" + cpu;
        return new Binary("Mach-O 64", machine, exports, needed, Set.of(), hardening, !localSymbols, signature);
    }

    private static void exportTrie(ByteBuffer b, int start, int size, Set<String> out) {
        if (size > 0) {
            walk(b, start, start, "", out, 0);
        }
    }

    private static void walk(ByteBuffer b, int start, int node, String prefix, Set<String> out, int depth) {
        if (depth > 256) {
            throw new IllegalStateException("export trie too deep");
        }
        int[] pos = {node};
        long terminal = uleb(b, pos);
        if (terminal > 0) {
            out.add(prefix.startsWith("_") ? prefix.substring(1) : prefix);
        }
        pos[0] += (int) terminal;
        int children = Byte.toUnsignedInt(b.get(pos[0]++));
        for (int i = 0; i < children; i++) {
            String edge = cString(b, pos[0]);
            pos[0] += edge.getBytes(StandardCharsets.ISO_8859_1).length + 1;
            long child = uleb(b, pos);
            walk(b, start, start + (int) child, prefix + edge, out, depth + 1);
        }
    }

    private static long uleb(ByteBuffer b, int[] pos) {
        long v = 0;
        int shift = 0;
        int x;
        do {
            x = Byte.toUnsignedInt(b.get(pos[0]++));
            v |= (long) (x & 0x7f) << shift;
            shift += 7;
        } while ((x & 0x80) != 0);
        return v;
    }

    /**
     * Checks the code directory of an embedded signature: every page hash must match the file's bytes (this is what
     * stripping after signing breaks, and what arm64 macOS refuses to load). Requirements and entitlements are not
     * checked; an ad-hoc signature has none that matter.
     */
    private static String codeSignature(ByteBuffer le, int off) {
        ByteBuffer b = le.duplicate().order(ByteOrder.BIG_ENDIAN);
        if (b.getInt(off) != 0xfade0cc0) {
            return "invalid: no embedded signature superblob";
        }
        int count = b.getInt(off + 8);
        for (int i = 0; i < count; i++) {
            int type = b.getInt(off + 12 + i * 8);
            int at = off + b.getInt(off + 16 + i * 8);
            if (type != 0 || b.getInt(at) != 0xfade0c02) {
                continue;
            }
            int flags = b.getInt(at + 12);
            int hashOffset = b.getInt(at + 16);
            int nCodeSlots = b.getInt(at + 28);
            long codeLimit = Integer.toUnsignedLong(b.getInt(at + 32));
            int hashSize = Byte.toUnsignedInt(b.get(at + 36));
            int hashType = Byte.toUnsignedInt(b.get(at + 37));
            int pageSize = 1 << Byte.toUnsignedInt(b.get(at + 39));
            if (hashType != 2 || hashSize != 32) {
                return "invalid: hash type " + hashType + " is not SHA-256";
            }
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                for (int p = 0; p < nCodeSlots; p++) {
                    long from = (long) p * pageSize;
                    int len = (int) Math.min(pageSize, codeLimit - from);
                    sha.update(b.array(), (int) from, len);
                    byte[] want = Arrays.copyOfRange(b.array(), at + hashOffset + p * 32, at + hashOffset + p * 32 + 32);
                    if (!Arrays.equals(sha.digest(), want)) {
                        return "invalid: page " + p + " does not match its hash";
                    }
                }
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            if ((long) nCodeSlots * pageSize < codeLimit) {
                return "invalid: " + nCodeSlots + " pages do not cover " + codeLimit + " bytes";
            }
            return (flags & 2) != 0 ? "valid ad-hoc" : "valid (not ad-hoc)";
        }
        return "invalid: no code directory";
    }

    // ------------------------------------------------------------------------------------------------ PE
    private static Binary pe(ByteBuffer b) throws IOException {
        int pe = b.getInt(0x3c);
        if (b.getInt(pe) != 0x00004550) {
            throw new IOException("MZ file without a PE header");
        }
        int machine = Short.toUnsignedInt(b.getShort(pe + 4));
        int nsections = Short.toUnsignedInt(b.getShort(pe + 6));
        int symbolCount = b.getInt(pe + 12);
        int optSize = Short.toUnsignedInt(b.getShort(pe + 20));
        int characteristics = Short.toUnsignedInt(b.getShort(pe + 22));
        int opt = pe + 24;
        if (Short.toUnsignedInt(b.getShort(opt)) != 0x20b) {
            throw new IOException("not PE32+");
        }
        if ((characteristics & 0x2000) == 0) {
            throw new IOException("PE file is not a DLL");
        }
        int dllChar = Short.toUnsignedInt(b.getShort(opt + 70));
        Set<String> hardening = new TreeSet<>();
        if ((dllChar & 0x40) != 0) {
            hardening.add("aslr");
        }
        if ((dllChar & 0x20) != 0) {
            hardening.add("high-entropy-aslr");
        }
        if ((dllChar & 0x100) != 0) {
            hardening.add("nx");
        }
        int sections = opt + optSize;
        int exportRva = b.getInt(opt + 112);
        int importRva = b.getInt(opt + 120);
        Set<String> exports = new TreeSet<>();
        if (exportRva != 0) {
            int dir = rva(b, sections, nsections, exportRva);
            int names = b.getInt(dir + 24);
            int nameTable = rva(b, sections, nsections, b.getInt(dir + 32));
            for (int i = 0; i < names; i++) {
                exports.add(cString(b, rva(b, sections, nsections, b.getInt(nameTable + 4 * i))));
            }
        }
        List<String> needed = new ArrayList<>();
        if (importRva != 0) {
            for (int d = rva(b, sections, nsections, importRva); b.getInt(d + 12) != 0; d += 20) {
                needed.add(cString(b, rva(b, sections, nsections, b.getInt(d + 12))));
            }
        }
        String m = machine == 0x8664 ? "x86_64" : machine == 0xaa64 ? "aarch64" : "pe-" + Integer.toHexString(machine);
        return new Binary("PE32+", m, exports, needed, Set.of(), hardening, symbolCount == 0, null);
    }

    private static int rva(ByteBuffer b, int sections, int n, int rva) throws IOException {
        for (int i = 0; i < n; i++) {
            int s = sections + i * 40;
            int va = b.getInt(s + 12);
            int vsize = Math.max(b.getInt(s + 8), b.getInt(s + 16));
            if (Integer.compareUnsigned(rva, va) >= 0 && Integer.compareUnsigned(rva, va + vsize) < 0) {
                return rva - va + b.getInt(s + 20);
            }
        }
        throw new IOException("RVA 0x" + Integer.toHexString(rva) + " is in no section");
    }

    private static String cString(ByteBuffer b, long at) {
        int start = Math.toIntExact(at);
        int end = start;
        while (b.get(end) != 0) {
            end++;
        }
        byte[] s = new byte[end - start];
        b.get(start, s);
        return new String(s, StandardCharsets.ISO_8859_1);
    }
}
