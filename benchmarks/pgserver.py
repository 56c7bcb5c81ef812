"""A PostgreSQL server of a benchmark's own: made with initdb in a folder,
listening only on a socket there, as the `postgres` user when run as root
(initdb refuses root), stopped when the benchmark ends. Durable as a real
server is (fsync stays on): the figures are what a user's server costs."""
import atexit
import glob
import os
import shutil
import subprocess
import tempfile


def bin_folder():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(found[-1]) if found else None


class Server:
    def __init__(self, folder=None, standby_of=None, keep=False):
        """A new server; with `standby_of`, a hot standby of that one (its copy
        made by pg_basebackup -R, following its log by streaming replication).
        With `keep`, its folder outlives the benchmark, and a server already
        made in it is started again."""
        self.bin = bin_folder()
        if self.bin is None:
            raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
        self.folder = folder or tempfile.mkdtemp(prefix="limelight-pg-", dir="/tmp")
        os.makedirs(self.folder, exist_ok=True)
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        self.user = "limelight"
        self.data = os.path.join(self.folder, "data")
        self.keep = keep
        self.reused = keep and os.path.isdir(self.data)
        if standby_of and not self.reused:
            self._run("pg_basebackup", "-h", standby_of.folder, "-U", self.user, "-D", self.data,
                      "-R", "--checkpoint=fast")
        elif not self.reused:
            self._run("initdb", "-D", self.data, "-A", "trust", "-U", self.user, "-E", "UTF8",
                      "--locale=C")
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "server.log"), "-w",
                  "-o", f"-k {self.folder} -c listen_addresses='' -c max_connections=100",
                  "start")
        atexit.register(self.stop)

    def name(self, database):
        """The store name of a database of this server."""
        return f"host={self.folder} user={self.user} dbname={database}"

    def _run(self, program, *arguments):
        command = [os.path.join(self.bin, program), *arguments]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--"] + command
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def database(self, name):
        """A new database (kept from an earlier run when the server is); the
        store name limelightd and find-in take."""
        if not (self.reused and self.psql("postgres", f"SELECT 1 FROM pg_database "
                                                       f"WHERE datname = '{name}'").strip()):
            self._run("createdb", "-h", self.folder, "-U", self.user, name)
        return self.name(name)

    def size(self, name):
        out = subprocess.run([os.path.join(self.bin, "psql"), "-h", self.folder, "-U", self.user,
                              "-d", name, "-Atc", f"SELECT pg_database_size('{name}')"],
                             capture_output=True, text=True, check=True).stdout
        return int(out.strip())

    def psql(self, name, sql):
        return subprocess.run([os.path.join(self.bin, "psql"), "-h", self.folder, "-U", self.user,
                               "-d", name, "-Atc", sql], capture_output=True, text=True,
                              check=True).stdout

    def stop(self):
        if self.folder and os.path.isdir(self.data):
            try:
                self._run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
            except subprocess.CalledProcessError:
                pass
            if not self.keep:
                shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
