import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Build step of deploy's distribution (JDK 24+, run as a source file at package time): rewrites
 * the class files of each jar named on the command line that are older than Java 6 (major version
 * below 50, picocli's Java 5 classes) as Java 8 class files (version 52) with stack map frames, in
 * place. The code is unchanged, instruction for instruction; only the version and the frames the
 * split verifier needs are new. Such class files can go into the client commands' class-data
 * archive (an AOT cache or CDS archive refuses class files older than 50), which is what makes a
 * client command start without loading and linking about 170 picocli classes from the jar.
 * Exit code 0; a class it cannot rewrite fails the build.
 */
public final class ArchivableClassFiles {

  private static final int OLDEST_ARCHIVABLE = 50;
  private static final int TARGET = 52;

  public static void main(String[] args) throws IOException {
    for (String jar : args) {
      int rewritten = rewrite(Path.of(jar));
      System.out.println(jar + ": " + rewritten + " class files rewritten as version " + TARGET);
    }
  }

  private static int rewrite(Path jar) throws IOException {
    Path out = jar.resolveSibling(jar.getFileName() + ".tmp");
    int rewritten = 0;
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
        ZipInputStream in = new ZipInputStream(Files.newInputStream(jar));
        ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
      ClassFile classFile =
          ClassFile.of(
              ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
              ClassFile.ClassHierarchyResolverOption.of(
                  ClassHierarchyResolver.defaultResolver()
                      .orElse(ClassHierarchyResolver.ofResourceParsing(loader))));
      ZipEntry entry;
      while ((entry = in.getNextEntry()) != null) {
        byte[] bytes = in.readAllBytes();
        if (entry.getName().endsWith(".class")) {
          ClassModel model = classFile.parse(bytes);
          if (model.majorVersion() < OLDEST_ARCHIVABLE) {
            ClassTransform version =
                (builder, element) -> {
                  if (element instanceof ClassFileVersion) {
                    builder.withVersion(TARGET, 0);
                  } else {
                    builder.with(element);
                  }
                };
            // A code transform that is not the identity makes the builder write the code again,
            // with the stack map frames the new version requires.
            CodeTransform copy = (code, element) -> code.with(element);
            bytes =
                classFile.transformClass(
                    model, version.andThen(ClassTransform.transformingMethodBodies(copy)));
            rewritten++;
          }
        }
        ZipEntry copy = new ZipEntry(entry.getName());
        copy.setTime(entry.getTime());
        zip.putNextEntry(copy);
        zip.write(bytes);
        zip.closeEntry();
      }
    }
    Files.move(out, jar, StandardCopyOption.REPLACE_EXISTING);
    return rewritten;
  }
}
