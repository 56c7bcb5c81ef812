import LimelightQueryClient

#if canImport(Glibc)
  import Glibc
#endif

// find-in: hands the search to the running watcher, which has the index open
// and answers in a fraction of the time a new process needs to open it; when
// no watcher serves it, runs find-in-direct, which searches on its own.
let arguments = (1..<Int(CommandLine.argc)).map { index in
  let argument = CommandLine.unsafeArgv[index]!
  return UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) }
}
if let status = QueryClient.search(arguments: arguments) { exit(status) }
QueryClient.runDirectly()
