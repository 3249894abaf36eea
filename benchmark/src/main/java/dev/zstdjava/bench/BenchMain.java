package dev.zstdjava.bench;
public final class BenchMain { public static void main(String[] a) throws Exception { org.openjdk.jmh.Main.main(a);} }
