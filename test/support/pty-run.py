# Runs a command in a real pseudo-terminal (stdin, stdout and stderr are a tty) and answers its
# questions: argv[1] is JSON {"cmd": [...], "env": {...}, "answers": [[regex, text], ...],
# "timeout": s}. Each answer is typed once its regex appears in the output read so far (after the
# previous answer's match). Prints JSON {"code": exit status, "output": everything read, "answered": n}.
import json, os, pty, re, select, sys, time

spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ)
    env.update(spec.get("env", {}))
    os.execvpe(spec["cmd"][0], spec["cmd"], env)

out = b""
seen = 0
answers = [(re.compile(a.encode()), t) for a, t in spec.get("answers", [])]
answered = 0
deadline = time.time() + spec.get("timeout", 60)
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    if answered < len(answers):
        m = answers[answered][0].search(out, seen)
        if m:
            seen = m.end()
            os.write(fd, (answers[answered][1] + "\r").encode())
            answered += 1
else:
    os.kill(pid, 9)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print(json.dumps({"code": code, "output": out.decode("utf8", "replace"), "answered": answered}))
