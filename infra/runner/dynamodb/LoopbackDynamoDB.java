import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local listening on 127.0.0.1 only. Its own command line has no bind
 * option and listens on every interface, which would expose the database to the LAN.
 * Takes DynamoDB Local's usual arguments (-port, -dbPath, -inMemory, -sharedDb ...).
 */
public class LoopbackDynamoDB {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    for (Connector connector : jetty.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
    System.out.println("DynamoDB Local listening on 127.0.0.1");
  }
}
