package dev.zstdjava.spring.boot.example;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Service;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** A cached service of the example application: each method computes once per argument. */
@Service
public class Catalog {
    private final AtomicInteger loads = new AtomicInteger();

    /** Cached in "products" (JDK serialization, Boot's default). */
    @Cacheable("products")
    public String product(int id) {
        loads.incrementAndGet();
        return ("product " + id + ": a description long enough to be worth compressing. ").repeat(10);
    }

    /** Cached in "profiles" (JSON, the application's own cache configuration). */
    @Cacheable("profiles")
    public Map<String, Object> profile(String user) {
        loads.incrementAndGet();
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("user", user);
        p.put("bio", ("the profile of " + user + ", written at length. ").repeat(10));
        return p;
    }

    /** @return how many times a method body ran (cache misses) */
    public int loads() {
        return loads.get();
    }
}
