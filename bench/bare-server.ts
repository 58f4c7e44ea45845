// The reference for bench/heartbeat.ts: a bare node:http server answering every request `OK` with
// the same headers as a terminal reply (text/plain, Content-Length, Date).
import http from 'node:http';

const body = 'OK';
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 2, Date: new Date().toUTCString() });
    res.end(body);
  })
  .listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
