"""Drives the real Valkey GLIDE Python client for the interop tests of zstd-java-lettuce and the cross-client tests.

usage: glide_interop.py MODE PORT BACKEND IN_FILE OUT_FILE
  MODE     write: SET every entry of IN_FILE (the even ones with SET, the odd ones in one MSET);
                  OUT_FILE gets GLIDE's statistics as JSON
           read:  GET every key of IN_FILE (the even ones with GET, the odd ones in one MGET);
                  OUT_FILE gets the entries read, a missing key as length -1
           read-each: GET every key with its own command; a failed GET is recorded as length -2 followed by
                  [u32 big-endian length][the error as UTF-8 text] instead of stopping the script
           write-scope: every write of GLIDE's compressed scope its API offers, by entry index modulo 6: SET,
                  SET NX with EX, MSET, MSETNX, SET + MSET in a pipeline batch, SET + MSET in a transaction;
                  OUT_FILE gets GLIDE's statistics as JSON
           read-batch: GET every key inside a pipeline batch and inside a transaction (GLIDE decompresses every
                  reply that carries the header there); the two must agree; OUT_FILE as for read
  BACKEND  zstd | lz4 | none (no compression configured), optionally with a level: zstd:19, lz4:-5
Entry files: repeated [u32 big-endian key length][key][i32 big-endian value length, -1 = nil][value].
"""
import asyncio
import json
import struct
import sys

from glide import (Batch, CompressionBackend, CompressionConfiguration, ConditionalChange, ExpirySet,
                   ExpiryType, GlideClient, GlideClientConfiguration, NodeAddress)


def read_entries(path):
    entries = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        (klen,) = struct.unpack_from(">I", data, pos)
        pos += 4
        key = data[pos:pos + klen]
        pos += klen
        (vlen,) = struct.unpack_from(">i", data, pos)
        pos += 4
        value = None
        if vlen >= 0:
            value = data[pos:pos + vlen]
            pos += vlen
        entries.append((key, value))
    return entries


def write_entries(path, entries):
    with open(path, "wb") as f:
        for key, value in entries:
            f.write(struct.pack(">I", len(key)))
            f.write(key)
            if value is None:
                f.write(struct.pack(">i", -1))
            else:
                f.write(struct.pack(">i", len(value)))
                f.write(value)


async def main(mode, port, backend, in_file, out_file):
    compression = None
    if backend != "none":
        name, _, level = backend.partition(":")
        compression = CompressionConfiguration(enabled=True, backend=CompressionBackend[name.upper()],
                                               compression_level=int(level) if level else None)
    config = GlideClientConfiguration([NodeAddress("127.0.0.1", int(port))], compression=compression,
                                      request_timeout=10000)
    client = await GlideClient.create(config)
    try:
        entries = read_entries(in_file)
        even = [e for i, e in enumerate(entries) if i % 2 == 0]
        odd = [e for i, e in enumerate(entries) if i % 2 == 1]
        if mode == "write":
            for key, value in even:
                await client.set(key, value)
            if odd:
                await client.mset({key: value for key, value in odd})
            with open(out_file, "w") as f:
                json.dump(await client.get_statistics(), f)
        elif mode == "read-each":
            with open(out_file, "wb") as f:
                for key, _ in entries:
                    f.write(struct.pack(">I", len(key)))
                    f.write(key)
                    try:
                        value = await client.get(key)
                    except Exception as e:  # recorded per key: the test decides what is expected
                        text = (type(e).__name__ + ": " + str(e)).encode("utf-8")
                        f.write(struct.pack(">i", -2))
                        f.write(struct.pack(">I", len(text)))
                        f.write(text)
                        continue
                    f.write(struct.pack(">i", -1 if value is None else len(value)))
                    f.write(value or b"")
        elif mode == "write-scope":
            groups = [[e for i, e in enumerate(entries) if i % 6 == g] for g in range(6)]
            for key, value in groups[0]:
                await client.set(key, value)
            for key, value in groups[1]:
                await client.set(key, value, conditional_set=ConditionalChange.ONLY_IF_DOES_NOT_EXIST,
                                 expiry=ExpirySet(ExpiryType.SEC, 1000))
            if groups[2]:
                await client.mset({key: value for key, value in groups[2]})
            if groups[3]:
                if not await client.msetnx({key: value for key, value in groups[3]}):
                    raise SystemExit("MSETNX set nothing")
            for atomic, group in ((False, groups[4]), (True, groups[5])):
                if group:
                    batch = Batch(is_atomic=atomic)
                    batch.set(group[0][0], group[0][1])
                    if len(group) > 1:
                        batch.mset({key: value for key, value in group[1:]})
                    await client.exec(batch, raise_on_error=True)
            with open(out_file, "w") as f:
                json.dump(await client.get_statistics(), f)
        elif mode == "read-batch":
            keys = [key for key, _ in entries]
            results = []
            for atomic in (False, True):
                batch = Batch(is_atomic=atomic)
                for key in keys:
                    batch.get(key)
                results.append(await client.exec(batch, raise_on_error=True))
            if results[0] != results[1]:
                raise SystemExit("a pipeline and a transaction read different values")
            write_entries(out_file, list(zip(keys, results[0])))
        elif mode == "read":
            got = {}
            for key, _ in even:
                got[key] = await client.get(key)
            if odd:
                values = await client.mget([key for key, _ in odd])
                for (key, _), value in zip(odd, values):
                    got[key] = value
            write_entries(out_file, [(key, got[key]) for key, _ in entries])
        else:
            raise SystemExit("unknown mode " + mode)
    finally:
        await client.close()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:6]))
