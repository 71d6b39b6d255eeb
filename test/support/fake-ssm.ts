// A fake SSM Parameter Store of our own (no local server exists), answering GetParameter in
// the service's AWS JSON 1.1 protocol: a SecureString's value only WithDecryption (otherwise
// its ciphertext), ParameterNotFound for a name it does not hold.
import { serveAwsJson, ServiceError, type JsonService } from './fake-aws-json';

export class FakeSsm {
  /** Every GetParameter request's input, in order. */
  calls: Record<string, unknown>[] = [];
  /** Every request fails with 400 ThrottlingException while set, as the service does past its rate. */
  throttling = false;
  private readonly parameters = new Map<string, { value: string; version: number }>();

  putSecureString(name: string, value: string) {
    this.parameters.set(name, { value, version: (this.parameters.get(name)?.version ?? 0) + 1 });
    return this;
  }

  delete(name: string) {
    this.parameters.delete(name);
    return this;
  }

  start(): Promise<JsonService> {
    return serveAwsJson('AmazonSSM.', (operation, input) => {
      if (operation !== 'GetParameter')
        throw new ServiceError(400, 'UnknownOperationException', `The fake answers GetParameter only, not ${operation}`);
      this.calls.push(input);
      if (this.throttling) throw new ServiceError(400, 'ThrottlingException', 'Rate exceeded');
      const name = input.Name;
      if (typeof name !== 'string' || !name) throw new ServiceError(400, 'ValidationException', 'Name is required');
      const parameter = this.parameters.get(name);
      if (!parameter) throw new ServiceError(400, 'ParameterNotFound', `Parameter ${name} not found.`);
      return {
        Parameter: {
          Name: name,
          Type: 'SecureString',
          Value: input.WithDecryption === true ? parameter.value : Buffer.from(`kms:${parameter.value}`).toString('base64'),
          Version: parameter.version,
          DataType: 'text',
          ARN: `arn:aws:ssm:us-east-1:123456789012:parameter${name}`,
        },
      };
    });
  }
}
