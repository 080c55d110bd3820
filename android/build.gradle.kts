// The library as an Android library module, for apps that build with Gradle and the Android Gradle
// Plugin. UNTESTED HERE: the machine that builds this repository has no Android SDK, Gradle or
// Maven Central; android/build (javac + the JUnit console launcher) is what is run and tested.
// Use: copy android/ into your project as a module and `include(":signin-client")`.
plugins {
    id("com.android.library")
}

android {
    namespace = "dev.signinbackend.client"
    compileSdk = 35

    defaultConfig {
        minSdk = 24
        consumerProguardFiles("consumer-rules.pro")
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_11
        targetCompatibility = JavaVersion.VERSION_11
    }

    sourceSets {
        // src/mirror is the test-only copy of Android declarations for builds without the SDK:
        // never part of an Android build, which has the real ones.
        getByName("main").java.setSrcDirs(listOf("src/main/java"))
        getByName("test").java.setSrcDirs(listOf("src/test/java", "src/mirror/java"))
    }

    testOptions {
        unitTests.all { it.useJUnitPlatform() }
    }
}

dependencies {
    // None at run time: org.json, HttpURLConnection and the keystore are Android's own.
    testImplementation("org.junit.jupiter:junit-jupiter:5.9.2")
    testImplementation("org.json:json:20231013")  // the JVM unit tests need an org.json; Android ships AOSP's
}
