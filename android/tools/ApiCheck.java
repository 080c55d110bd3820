import java.io.DataInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lists every platform class, method and field the library's class files reference (their
 * constant pools and descriptors) and compares the list with the reviewed one
 * (api/android-24-used.txt, each entry checked against Android API 24's public API). A reference
 * the list lacks fails the build: a new platform API is used only after someone checks that
 * Android 7.0 has it. An entry nothing references any more fails too, so the list stays exact.
 * A build tool, not part of the library (it may use any JDK API).
 *
 * Usage: java ApiCheck LIST CLASSES_DIR [--print]
 */
public final class ApiCheck {
    private static final String[] PLATFORM = {"java/", "javax/", "org/json/", "android/", "dalvik/"};
    private static final Pattern CLASS_IN_DESCRIPTOR = Pattern.compile("L([^;<>]+);");

    public static void main(String[] args) throws IOException {
        Set<String> used = new TreeSet<>();
        List<File> files = new ArrayList<>();
        collect(new File(args[1]), files);
        for (File f : files) {
            read(f, used);
        }
        if (args.length > 2 && args[2].equals("--print")) {
            used.forEach(System.out::println);
            return;
        }
        Set<String> listed = new TreeSet<>();
        for (String line : Files.readAllLines(new File(args[0]).toPath(), StandardCharsets.UTF_8)) {
            String entry = line.replaceAll("\\s+#.*$", "").trim();
            if (!entry.isEmpty() && !entry.startsWith("#")) {
                listed.add(entry);
            }
        }
        Set<String> unlisted = new TreeSet<>(used);
        unlisted.removeAll(listed);
        Set<String> stale = new TreeSet<>(listed);
        stale.removeAll(used);
        for (String s : unlisted) {
            System.err.println("not checked against API 24: " + s);
        }
        for (String s : stale) {
            System.err.println("listed but no longer used: " + s);
        }
        if (!unlisted.isEmpty() || !stale.isEmpty()) {
            System.err.println("ApiCheck: update " + args[0] + " (check each new entry against Android API 24)");
            System.exit(1);
        }
        System.out.println("ApiCheck: " + used.size() + " platform references, all in " + args[0]);
    }

    private static void collect(File dir, List<File> out) {
        File[] children = dir.listFiles();
        if (children == null) {
            return;
        }
        for (File f : children) {
            if (f.isDirectory()) {
                collect(f, out);
            } else if (f.getName().endsWith(".class")) {
                out.add(f);
            }
        }
    }

    private static boolean platform(String internalName) {
        for (String p : PLATFORM) {
            if (internalName.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private static void read(File file, Set<String> used) throws IOException {
        try (DataInputStream in = new DataInputStream(new FileInputStream(file))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IOException(file + " is not a class file");
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            int[] tags = new int[count];
            String[] utf8 = new String[count];
            int[] first = new int[count];
            int[] second = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                tags[i] = tag;
                switch (tag) {
                    case 1: utf8[i] = in.readUTF(); break;
                    case 3: case 4: in.readInt(); break;
                    case 5: case 6: in.readLong(); i++; break;
                    case 7: case 8: case 16: case 19: case 20: first[i] = in.readUnsignedShort(); break;
                    case 9: case 10: case 11: case 12: case 17: case 18:
                        first[i] = in.readUnsignedShort();
                        second[i] = in.readUnsignedShort();
                        break;
                    case 15: in.readUnsignedByte(); first[i] = in.readUnsignedShort(); break;
                    default: throw new IOException(file + ": unknown constant tag " + tag);
                }
            }
            for (int i = 1; i < count; i++) {
                switch (tags[i]) {
                    case 7:
                        addClass(utf8[first[i]], used);
                        break;
                    case 9: case 10: case 11: {
                        String owner = utf8[first[first[i]]];
                        String name = utf8[first[second[i]]];
                        String descriptor = utf8[second[second[i]]];
                        if (platform(owner)) {
                            used.add((tags[i] == 9 ? "field " : "method ") + owner + "." + name + descriptor);
                        }
                        addDescriptor(descriptor, used);
                        break;
                    }
                    case 12: case 16:
                        addDescriptor(utf8[tags[i] == 12 ? second[i] : first[i]], used);
                        break;
                    default:
                        break;
                }
            }
        }
    }

    private static void addClass(String name, Set<String> used) {
        String element = name.replaceFirst("^\\[+", "");
        if (element.startsWith("L") && element.endsWith(";")) {
            element = element.substring(1, element.length() - 1);
        }
        if (platform(element)) {
            used.add("class " + element);
        }
    }

    private static void addDescriptor(String descriptor, Set<String> used) {
        Matcher m = CLASS_IN_DESCRIPTOR.matcher(descriptor);
        while (m.find()) {
            addClass(m.group(1), used);
        }
    }
}
