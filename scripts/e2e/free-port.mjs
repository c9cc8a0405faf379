// Prints a TCP port on 127.0.0.1 that is free right now (the OS picks it).
import net from 'node:net';

const server = net.createServer().listen(0, '127.0.0.1', () => {
  console.log(server.address().port);
  server.close();
});
