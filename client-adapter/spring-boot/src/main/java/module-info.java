/**
 * Spring Boot auto-configuration for compressed Redis/Valkey values in Valkey GLIDE's stored format. Makes no
 * restricted calls itself: needs {@code --enable-native-access=dev.zstdjava.codec} (on the class path, where Boot
 * applications usually run: {@code --enable-native-access=ALL-UNNAMED}).
 *
 * <p>What it adapts is optional ({@code requires static}): Spring Data Redis, Boot's cache module, Actuator and
 * Micrometer; each auto-configuration applies only when its classes are present. On Boot 3.5, Boot's Redis, cache
 * and metrics auto-configurations are in {@code spring.boot.autoconfigure} and Actuator's auto-configuration module
 * instead: this module names them as strings, and its one Boot 3.5 class ({@code Boot3Caches}, compiled apart against
 * Boot 3.5) uses only {@code spring.boot.autoconfigure}. The package is open to Spring,
 * which instantiates the configuration classes and binds the properties reflectively.
 */
@SuppressWarnings("requires-transitive-automatic") // Spring Boot and Spring Framework ship as automatic modules
module dev.zstdjava.spring.boot {
    requires transitive dev.zstdjava.values;
    requires transitive spring.boot;
    requires transitive spring.boot.autoconfigure;
    requires transitive spring.context;
    requires transitive spring.core;
    requires spring.beans;
    requires static spring.data.redis;
    requires static spring.boot.cache;
    requires static spring.boot.actuator;
    requires static spring.boot.actuator.autoconfigure;
    requires static micrometer.core;

    exports dev.zstdjava.spring.boot;
    opens dev.zstdjava.spring.boot to spring.core, spring.beans, spring.context, spring.boot;
}
